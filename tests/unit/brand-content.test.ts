/**
 * R-BRAND-4 (the content side; the native review itself is in the copy commits of issue 22): the
 * sample content is complete in every language it ships, French included as a draft, and no filter
 * of the journal leads to an empty list. R-BRAND-6: the before/after screenshots are in the docs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FIXTURE_CONTENT, ROOT } from '../helpers/site.ts';

const yaml = <T,>(f: string) => parse(readFileSync(path.join(FIXTURE_CONTENT, f), 'utf8')) as T;
const site = yaml<{ languages: string[]; draftLanguages?: string[] }>('site.yaml');
const languages = [...site.languages, ...(site.draftLanguages ?? [])];
const blog = path.join(FIXTURE_CONTENT, 'blog');
const matter = (file: string) => parse(/^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(file, 'utf8'))![1]!) as { category: string; draft?: boolean };

describe('[R-BRAND-4] the sample content in every language', () => {
  it('every post is written in every language the site ships, the draft French too', () => {
    for (const slug of readdirSync(blog)) for (const lang of languages) expect(existsSync(path.join(blog, slug, `${lang}.md`)), `${slug}/${lang}.md`).toBe(true);
  });

  it('every category of the filter bar has a post in every language (no filter leads to an empty list)', () => {
    const { categories } = yaml<{ categories: string[] }>('data/blog.yaml');
    for (const lang of languages)
      for (const category of categories) {
        const posts = readdirSync(blog).filter((slug) => existsSync(path.join(blog, slug, `${lang}.md`)) && matter(path.join(blog, slug, `${lang}.md`)).category === category);
        expect(posts.length, `${lang}: ${category}`).toBeGreaterThan(0);
      }
  });
});

describe('[R-BRAND-6] before and after screenshots', () => {
  it('home, city, rates and booking at 390 and 1280 px, before and after, linked from the README', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const when of ['before', 'after'])
      for (const page of ['home', 'city', 'rates', 'booking'])
        for (const width of [390, 1280]) {
          const rel = `docs/img/${when}/${page}-${width}.png`;
          expect(existsSync(path.join(ROOT, rel)), rel).toBe(true);
          expect(readFileSync(path.join(ROOT, rel)).subarray(1, 4).toString(), rel).toBe('PNG');
          expect(readme, rel).toContain(`(${rel})`);
        }
  });
});
