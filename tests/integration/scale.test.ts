/** Large sites stay usable: paginated lists, a sitemap index past 50,000 URLs. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, read, has, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';
import { sitemapFiles } from '../../src/output/sitemap.ts';
import type { Site } from '../../src/content/model.ts';
import type { Route, RouteTable } from '../../src/routes/table.ts';

let out: Out;
const page = (f: string) => parseHtml(read(out, f));

/** The fixture's own English posts, all and in travel (read from it, so a post added there changes no count here). */
let ownEn = 0;
let ownTravel = 0;
beforeAll(async () => {
  const content = copyContent();
  for (const slug of readdirSync(path.join(content, 'blog'))) {
    const file = path.join(content, 'blog', slug, 'en.md');
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    if (/^draft: true/m.test(text)) continue;
    ownEn++;
    if (/^category: travel$/m.test(text)) ownTravel++;
  }
  // 30 more English travel posts, 2 more Spanish ones: English lists run to 3 pages of 12.
  for (let i = 1; i <= 30; i++) {
    const slug = `journey-${String(i).padStart(2, '0')}`;
    mkdirSync(path.join(content, 'blog', slug), { recursive: true });
    const langs = i <= 2 ? ['en', 'es'] : ['en'];
    for (const lang of langs)
      writeFileSync(
        path.join(content, 'blog', slug, `${lang}.md`),
        `---\ntitle: "Journey ${i} (${lang})"\nexcerpt: "A short trip."\ndate: 2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}\ncategory: travel\nauthor: "Aurelia"\ntags: [travel]\n---\n\n## Day one\n\nText.\n`,
      );
  }
  ({ out } = await renderSite(content));
});

describe('blog pagination', () => {
  it('cuts the blog list and categories into pages of postsPerPage, with prev/next links', () => {
    expect(page('blog.html').querySelectorAll('.post-card')).toHaveLength(12);
    expect(page('blog/page/2.html').querySelectorAll('.post-card')).toHaveLength(12);
    const en = ownEn + 30;
    expect(en, 'the fixture keeps English to 3 list pages of 12').toBeLessThanOrEqual(36);
    expect(page('blog/page/3.html').querySelectorAll('.post-card')).toHaveLength(en - 24);
    expect(has(out, 'blog/page/4.html')).toBe(false);
    expect(has(out, 'blog/page/1.html')).toBe(false);
    const p2 = page('blog/page/2.html');
    expect(p2.querySelector('.pagination a[rel="prev"]')!.getAttribute('href')).toBe('/blog');
    expect(p2.querySelector('.pagination a[rel="next"]')!.getAttribute('href')).toBe('/blog/page/3');
    expect(page('blog.html').querySelector('.pagination a[rel="prev"]')).toBeNull();
    expect(page('blog/page/3.html').querySelector('.pagination a[rel="next"]')).toBeNull();
    expect(page('blog/category/travel/page/3.html').querySelectorAll('.post-card')).toHaveLength(ownTravel + 30 - 24);
    // Every post appears on exactly one page of the list.
    const titles = ['blog.html', 'blog/page/2.html', 'blog/page/3.html'].flatMap((f) => [...page(f).querySelectorAll('.post-card h2')].map((h) => h.textContent));
    expect(new Set(titles).size).toBe(en);
  });

  it('each page is its own canonical with its own title; hreflang lists only languages that have that page', () => {
    const h2 = headOf(page('blog/page/2.html'));
    expect(h2.canonical).toBe('https://aurelia-companion.example/blog/page/2');
    expect(h2.title).not.toBe(headOf(page('blog.html')).title);
    expect(h2.alternates.map((a) => a.hreflang)).toEqual(['en', 'x-default']);
    expect(has(out, 'es/blog/page/2.html')).toBe(false);
    expect(read(out, 'sitemap.xml')).toContain('<loc>https://aurelia-companion.example/blog/page/3</loc>');
    // A paginated list links to category pages instead of filtering in place.
    expect(page('blog.html').querySelector('nav.filters')!.hasAttribute('data-inplace')).toBe(false);
    expect(page('es/blog.html').querySelector('nav.filters')!.hasAttribute('data-inplace')).toBe(true);
  });
});

describe('[R-SEO-10] sitemap index', () => {
  it('becomes an index of sitemaps past the limit, each within it', () => {
    const base = 'https://example.org';
    const site = { config: { baseUrl: base }, languages: ['en'], defaultLanguage: 'en' } as unknown as Site;
    const routes: Route[] = Array.from({ length: 25 }, (_, i) => ({ kind: 'page', path: `/p${i}`, file: `p${i}.html`, lang: 'en', key: `p${i}`, template: 'x', indexable: true, origin: 'test' }));
    const table = { routes, byPath: new Map(), alternates: (r: Route) => new Map([['en', r.path]]), pagePath: () => '/' } as unknown as RouteTable;
    const files = sitemapFiles(site, table, 10);
    expect(files.map((f) => f.file)).toEqual(['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
    const index = String(files.at(-1)!.content);
    expect(index).toContain('<sitemapindex');
    expect(index.match(/<loc>/g)).toHaveLength(3);
    expect(String(files[0]!.content).match(/<url>/g)).toHaveLength(10);
    expect(String(files[2]!.content).match(/<url>/g)).toHaveLength(5);
    expect(sitemapFiles(site, table, 25).map((f) => f.file)).toEqual(['sitemap.xml']);
  });
});
