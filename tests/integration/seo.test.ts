/** Head metadata, hreflang, sitemap and host rules of the shipped site, read from dist. */
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlFiles, read } from '../helpers/site.ts';
import { shippedOut } from '../helpers/shared.ts';
import { shipped } from '../helpers/content.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';
import { BASE, fileForUrl, urlForFile } from '../helpers/urls.ts';

const out = shippedOut();
const pages = new Map(htmlFiles(out).map((f) => [f, { file: f, ...headOf(parseHtml(read(out, f))) }]));

const c = shipped();
/** A built post of the shipped content, in the last language it exists in (drafts are not built). */
const builtPost = () => {
  for (const [slug, langs] of c.posts)
    for (const lang of [...langs].reverse()) {
      const file = c.file(`${c.blog.path}/${slug}`, lang);
      if (pages.has(file)) return { file, lang };
    }
  throw new Error('the shipped content has no published post');
};

/** Indexable: no noindex and canonical pointing at the page itself. */
const indexable = () => [...pages.values()].filter((p) => !p.robots?.includes('noindex') && p.canonical === urlForFile(p.file));

describe('head', () => {
  it('[R-SEO-1][R-SEO-2] every page has a title, a description and (except 404s) an absolute canonical', () => {
    for (const p of pages.values()) {
      expect(p.title, p.file).toBeTruthy();
      if (!p.file.startsWith('s/')) expect(p.description, p.file).toBeTruthy();
      if (!/(^|\/)(404|offline)\.html$/.test(p.file)) expect(p.canonical?.startsWith(`${BASE}/`), `${p.file}: ${p.canonical}`).toBe(true);
    }
  });

  it('[R-SEO-1] titles differ between the pages of one language', () => {
    const byLang = new Map<string, Map<string, string>>();
    for (const p of indexable()) {
      const seen = byLang.get(p.lang!) ?? byLang.set(p.lang!, new Map()).get(p.lang!)!;
      expect(seen.get(p.title!), `${p.file} repeats the title of ${seen.get(p.title!)}`).toBeUndefined();
      seen.set(p.title!, p.file);
    }
  });

  it('[R-SEO-3] hreflang: every language plus x-default, absolute, self-referencing and reciprocal', () => {
    const list = indexable();
    const fixed = c.pages.filter((p: { kind?: string; canonical?: string; path: string }) => (p.kind ?? 'page') === 'page' && !p.canonical && !p.path.includes('{'));
    expect(list.length).toBeGreaterThanOrEqual(fixed.length * c.languages.length);
    for (const p of list) {
      const tags = p.alternates.map((a) => a.hreflang);
      expect(tags.at(-1), p.file).toBe('x-default');
      expect(p.alternates.find((a) => a.hreflang === p.lang)?.href, p.file).toBe(p.canonical);
      const set = JSON.stringify(p.alternates);
      for (const a of p.alternates) {
        expect(a.href).toMatch(/^https:\/\//);
        const other = pages.get(fileForUrl(a.href));
        expect(other, `${p.file} → ${a.href} does not exist`).toBeDefined();
        expect(JSON.stringify(other!.alternates), `${other!.file} is not reciprocal with ${p.file}`).toBe(set);
      }
    }
    const home = pages.get('index.html')!;
    expect(home.alternates.map((a) => a.hreflang)).toEqual([...c.languages, 'x-default']);
    expect(home.alternates.find((a) => a.hreflang === 'x-default')!.href).toBe(`${BASE}/`);
  });

  it('[R-SEO-4][R-SEO-5] Open Graph, Twitter and adult rating tags on every page people see', () => {
    const postFile = builtPost().file;
    const last = c.languages.at(-1)!;
    for (const f of ['index.html', c.file('/rates', c.others[0] ?? last), postFile, c.file('/contact', last)]) {
      const doc = parseHtml(read(out, f));
      for (const sel of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type', 'og:locale'])
        expect(doc.querySelector(`meta[property="${sel}"]`)?.getAttribute('content'), `${f} ${sel}`).toBeTruthy();
      expect(doc.querySelector('meta[name="twitter:card"]')!.getAttribute('content')).toBe('summary_large_image');
      expect(doc.querySelector('meta[name="rating"]')!.getAttribute('content')).toBe('adult');
      expect(doc.querySelector('meta[name="RATING"]')!.getAttribute('content')).toBe('RTA-5042-1996-1400-1577-RTA');
    }
    expect(parseHtml(read(out, postFile)).querySelector('meta[property="og:type"]')!.getAttribute('content')).toBe('article');
  });

  it('[R-SEO-8][R-SEO-6] JSON-LD parses everywhere, has no SearchAction, and posts carry BlogPosting', () => {
    for (const p of pages.values()) {
      for (const data of p.jsonLd) expect(JSON.stringify(data)).not.toContain('SearchAction');
    }
    const { file, lang } = builtPost();
    const post = pages.get(file)!;
    const posting = post.jsonLd.find((d) => d['@type'] === 'BlogPosting')!;
    expect(posting.inLanguage).toBe(lang);
    expect(posting.mainEntityOfPage).toBe(post.canonical);
    expect(post.jsonLd.some((d) => d['@type'] === 'BreadcrumbList')).toBe(true);
  });
});

describe('sitemap and robots', () => {
  it('[R-SEO-10] sitemap.xml lists exactly the indexable pages, each with its full alternates', () => {
    const xml = read(out, 'sitemap.xml');
    // Parsed with patterns: an HTML parser does not know the xhtml: namespace.
    const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]!);
    const locs = urls.map((u) => /<loc>([^<]+)<\/loc>/.exec(u)![1]!);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs.sort()).toEqual(indexable().map((p) => p.canonical!).sort());
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    for (const u of urls) {
      const loc = /<loc>([^<]+)<\/loc>/.exec(u)![1]!;
      const links = [...u.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map((m) => ({ hreflang: m[1], href: m[2] }));
      expect(links, loc).toEqual(pages.get(fileForUrl(loc))!.alternates);
    }
    for (const p of pages.values()) if (p.robots?.includes('noindex')) expect(locs).not.toContain(urlForFile(p.file));
    expect(read(out, 'robots.txt')).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });

  it('[R-BUILD-6] every _redirects rule leads to a file that exists', () => {
    const rules = read(out, '_redirects')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    // A rule per redirect and language, and a not-found rule per language.
    expect(rules.length).toBe(c.redirects.length * c.languages.length + c.languages.length);
    for (const rule of rules) {
      const [from, to, status] = rule.split(/\s+/);
      const target = to!.endsWith('.html') ? to!.slice(1) : fileForUrl(to!);
      expect(existsSync(path.join(out, target)), rule).toBe(true);
      expect(['301!', '404']).toContain(status);
      if (status === '301!') expect(existsSync(path.join(out, fileForUrl(from!))), `stub for ${from}`).toBe(true);
    }
  });

  it('[R-BUILD-6][R-JS-14] assets are content-hashed, the script is small, and _headers caches assets for a year', () => {
    // srcset attributes hold several URLs with widths: take each URL.
    const assets = read(out, 'index.html')
      .match(/\/assets\/[^"]+/g)!
      .flatMap((a) => a.split(/,\s*/).map((s) => s.split(/\s+/)[0]!));
    for (const a of assets) {
      expect(a).toMatch(/\.[0-9a-f]{8}\.[a-z0-9]+$/);
      expect(existsSync(path.join(out, a))).toBe(true);
    }
    const js = assets.find((a) => /\/main\.[0-9a-f]+\.js$/.test(a))!;
    const bytes = readFileSync(path.join(out, js));
    // [R-JS-14] the whole client script within 12 KB gzipped, with no framework runtime in it.
    expect(gzipSync(bytes).length).toBeLessThanOrEqual(12 * 1024);
    expect(bytes.toString()).not.toMatch(/react|__REACT|jsx/i);
    const headers = read(out, '_headers');
    expect(headers).toMatch(/\/assets\/\*\n(?:.*\n)*?\s+Cache-Control: public, max-age=31536000, immutable/);
  });
});
