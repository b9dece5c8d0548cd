/** Blog category pages: their own description in every language; empty ones stay out of search. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dump, load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, read, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';
import { fileForUrl } from '../helpers/urls.ts';
import { SHIPPED_CONTENT } from '../helpers/site.ts';
import { withCityLists } from '../helpers/content.ts';

// Fixture: the shipped content plus one category that has no posts in any language.
const content = copyContent(SHIPPED_CONTENT);
const EMPTY = 'fixture-empty';
const yaml = (file: string) => load(readFileSync(path.join(content, file), 'utf8')) as any;
const site = yaml('site.yaml') as { languages: string[]; defaultLanguage: string };
const blog = yaml('data/blog.yaml') as { path: string; categories: string[] };
blog.categories.push(EMPTY);
writeFileSync(path.join(content, 'data/blog.yaml'), dump(blog));
for (const lang of site.languages) {
  const texts = yaml(`i18n/${lang}.yaml`);
  texts.blog.category[EMPTY] = 'Quiet corner';
  texts.blog.categoryDescription[EMPTY] = 'A category kept for later: it has no posts yet, so search engines are asked to leave it alone.';
  writeFileSync(path.join(content, `i18n/${lang}.yaml`), dump(texts));
}
const pathOf = (lang: string, category: string) => `${lang === site.defaultLanguage ? '' : `/${lang}`}${blog.path}/category/${category}`;

describe('[R-UI-15][R-SEO-1][R-SEO-10] blog category pages', () => {
  let out: Out;
  let sitemap: string;
  beforeAll(async () => {
    ({ out } = await renderSite(content));
    sitemap = read(out, 'sitemap.xml');
  });

  it.each(site.languages)('[R-SEO-1] %s: each category page has its own description, shown as its intro', (lang) => {
    const raw = yaml(`i18n/${lang}.yaml`).blog.categoryDescription as Record<string, string>;
    const texts = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, withCityLists(v, lang, content)]));
    const seen = new Set<string>();
    for (const c of blog.categories) {
      const doc = parseHtml(read(out, fileForUrl(pathOf(lang, c))));
      const description = headOf(doc).description!;
      expect(description, c).toBe(texts[c]);
      expect(description.length, c).toBeGreaterThanOrEqual(70);
      expect(doc.querySelector('main .page-intro .lead')!.textContent, c).toBe(texts[c]);
      seen.add(description);
    }
    expect(seen.size).toBe(blog.categories.length);
  });

  it.each(site.languages)('[R-SEO-10] %s: a category without posts is noindex and out of the sitemap; one with posts is indexed', (lang) => {
    let empty = 0;
    for (const c of blog.categories) {
      const url = pathOf(lang, c);
      const doc = parseHtml(read(out, fileForUrl(url)));
      const posts = doc.querySelectorAll('.post-card').length;
      const inSitemap = sitemap.includes(`${url}</loc>`);
      if (posts === 0) {
        empty++;
        expect(headOf(doc).robots, url).toContain('noindex');
        expect(inSitemap, url).toBe(false);
      } else {
        expect(headOf(doc).robots ?? '', url).not.toContain('noindex');
        expect(inSitemap, url).toBe(true);
      }
    }
    expect(empty).toBeGreaterThan(0);
    // A language with posts has categories with posts too; a new language without posts has none.
    const hasPosts = readdirSync(path.join(content, 'blog')).some((slug) => existsSync(path.join(content, 'blog', slug, `${lang}.md`)));
    if (hasPosts) expect(empty).toBeLessThan(blog.categories.length);
  });
});
