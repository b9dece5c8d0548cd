/** sitemap.xml (an index of several past 50,000 URLs) and robots.txt, derived from the route table. */
import type { Site } from '../content/model.ts';
import { absoluteUrl } from '../routes/paths.ts';
import type { Route, RouteTable } from '../routes/table.ts';
import { alternatesFor } from '../render/head.ts';
import type { OutputFile } from '../assets/bundle.ts';
import { createHash } from 'node:crypto';

// (Most URLs have nothing to escape: tested once instead of replaced four times.)
const xmlEscape = (s: string) => (/[&<>"]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : s);

/** The sitemap protocol's limit per file. */
export const SITEMAP_LIMIT = 50_000;

/**
 * What the sitemap shows, gathered from the route table: each indexable page, and each set of
 * language versions (one set of hreflang links serves all of them). `key` is a hash of everything
 * the files are made from (the base URL, the languages, each page's path and date, each set's
 * paths by language), so a build whose key is the recorded one takes the last build's files as
 * they are (build.ts): at 1,000 posts x 4 languages they are 2.9 MB, made and written again by
 * every rebuild (~20 ms of a one-post rebuild). The key is taken from those inputs, not from the
 * XML: making the XML to hash it cost ~9 ms a build.
 */
export interface SitemapInput {
  site: Site;
  routes: RouteTable;
  limit: number;
  /** Per indexable route, in table order: the route and its set of language versions (an index in `sets`). */
  entries: { route: Route; set: number }[];
  /** A route of each set of language versions (alternatesFor gives the set's links). */
  sets: Route[];
  key: string;
}

export function sitemapInput(site: Site, routes: RouteTable, limit = SITEMAP_LIMIT): SitemapInput {
  const sets: Route[] = [];
  const setOf = new Map<ReadonlyMap<string, string>, number>();
  const entries: SitemapInput['entries'] = [];
  // What alternatesFor and the entries read. (Hashed once at the end: an update per route cost more than the hash.)
  const parts = [JSON.stringify([site.config.baseUrl, limit, site.languages, site.defaultLanguage])];
  for (const r of routes.routes) {
    if (!r.indexable) continue;
    const group = routes.alternates(r);
    let set = setOf.get(group);
    if (set === undefined) {
      set = sets.push(r) - 1;
      setOf.set(group, set);
      let line = 'S';
      for (const [lang, p] of group) line += `${lang}\0${p}\0`;
      parts.push(line);
    }
    entries.push({ route: r, set });
    parts.push(`U${r.path}\0${r.post ? `${r.post.updated ?? r.post.date}` : '\x01'}\0${set}`);
  }
  return { site, routes, limit, entries, sets, key: createHash('sha256').update(parts.join('\n')).digest('base64url') };
}

/** The sitemap's files (sitemap.xml last): one file, or an index of several past `limit` URLs. */
export function sitemapNames(input: Pick<SitemapInput, 'entries' | 'limit'>): string[] {
  const { entries, limit } = input;
  if (entries.length <= limit) return ['sitemap.xml'];
  return [...Array.from({ length: Math.ceil(entries.length / limit) }, (_, i) => `sitemap-${i + 1}.xml`), 'sitemap.xml'];
}

/** Indexable pages only, each with the full set of hreflang alternates including x-default. */
export function sitemapFiles(site: Site, routes: RouteTable, limit = SITEMAP_LIMIT): OutputFile[] {
  return sitemapOf(sitemapInput(site, routes, limit));
}

/** The sitemap files of `input` (sitemapFiles). */
export function sitemapOf(input: SitemapInput): OutputFile[] {
  const { site, routes, limit } = input;
  const base = site.config.baseUrl;
  const links = input.sets.map((r) =>
    alternatesFor(site, r, routes)
      .map((a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${xmlEscape(a.href)}"/>`)
      .join(''),
  );
  const entries = input.entries.map(({ route: r, set }) => {
    const lastmod = r.post ? `<lastmod>${r.post.updated ?? r.post.date}</lastmod>` : '';
    return `<url><loc>${xmlEscape(absoluteUrl(base, r.path))}</loc>${lastmod}${links[set]}</url>`;
  });
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  const urlset = (list: string[]) =>
    `${head}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${list.join('\n')}\n</urlset>\n`;
  const names = sitemapNames(input);
  if (names.length === 1) return [{ file: 'sitemap.xml', content: urlset(entries) }];
  const files: OutputFile[] = names.slice(0, -1).map((file, i) => ({ file, content: urlset(entries.slice(i * limit, (i + 1) * limit)) }));
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
