/** sitemap.xml (an index of several past 50,000 URLs) and robots.txt, derived from the route table. */
import type { Site } from '../content/model.ts';
import { absoluteUrl } from '../routes/paths.ts';
import type { RouteTable } from '../routes/table.ts';
import { alternatesFor } from '../render/head.ts';
import type { OutputFile } from '../assets/bundle.ts';

// (Most URLs have nothing to escape: tested once instead of replaced four times.)
const xmlEscape = (s: string) => (/[&<>"]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : s);

/** The sitemap protocol's limit per file. */
export const SITEMAP_LIMIT = 50_000;

/** Indexable pages only, each with the full set of hreflang alternates including x-default. */
export function sitemapFiles(site: Site, routes: RouteTable, limit = SITEMAP_LIMIT): OutputFile[] {
  const base = site.config.baseUrl;
  // The language versions of a page share one set of alternates (the route table's own map): its
  // links are written once for all of them.
  const linksOf = new Map<ReadonlyMap<string, string>, string>();
  const entries = routes.routes
    .filter((r) => r.indexable)
    .map((r) => {
      const group = routes.alternates(r);
      let links = linksOf.get(group);
      if (links === undefined) {
        links = alternatesFor(site, r, routes)
          .map((a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${xmlEscape(a.href)}"/>`)
          .join('');
        linksOf.set(group, links);
      }
      const lastmod = r.post ? `<lastmod>${r.post.updated ?? r.post.date}</lastmod>` : '';
      return `<url><loc>${xmlEscape(absoluteUrl(base, r.path))}</loc>${lastmod}${links}</url>`;
    });
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  const urlset = (list: string[]) =>
    `${head}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${list.join('\n')}\n</urlset>\n`;
  if (entries.length <= limit) return [{ file: 'sitemap.xml', content: urlset(entries) }];
  const files: OutputFile[] = [];
  for (let i = 0; i * limit < entries.length; i++)
    files.push({ file: `sitemap-${i + 1}.xml`, content: urlset(entries.slice(i * limit, (i + 1) * limit)) });
  const index = files.map((f) => `<sitemap><loc>${xmlEscape(`${base}/${f.file}`)}</loc></sitemap>`).join('\n');
  files.push({ file: 'sitemap.xml', content: `${head}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${index}\n</sitemapindex>\n` });
  return files;
}

/**
 * Crawlers may fetch every page: the `/s/` landing pages and redirect stubs carry `noindex`, which
 * a crawler only reads if robots.txt lets it in (a disallowed URL linked from elsewhere can still
 * be indexed, without its content).
 */
export function robotsTxt(site: Site): OutputFile {
  return { file: 'robots.txt', content: `User-agent: *\nAllow: /\n\nSitemap: ${site.config.baseUrl}/sitemap.xml\n` };
}
