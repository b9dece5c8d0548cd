/**
 * What a post may contain: images go through the image pipeline, same-site links follow the post's
 * language, relative links are resolved or reported, look-alike external links stay external,
 * heading ids are unique; images nothing uses are not shipped. Fixture posts are added to a copy
 * of the content under test; expectations come from its files.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, listFiles, read, runCli, SHIPPED_CONTENT, tmpDir, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';

const yamlOf = <T = any>(content: string, file: string): T => parse(readFileSync(path.join(content, file), 'utf8')) as T;
const site = yamlOf<{ languages: string[]; defaultLanguage: string }>(SHIPPED_CONTENT, 'site.yaml');
const blog = yamlOf<{ path: string; categories: string[] }>(SHIPPED_CONTENT, 'data/blog.yaml');
const pages = yamlOf<{ id: string; path: string; kind?: string }[]>(SHIPPED_CONTENT, 'pages.yaml');
const def = site.defaultLanguage;
// A second language when the site has one (links must then go to it), else the default.
const other = site.languages.find((l) => l !== def) ?? def;
const localize = (p: string, lang: string) => (lang === def ? p : p === '/' ? `/${lang}` : `/${lang}${p}`);
const fileOf = (p: string) => (p === '/' ? 'index.html' : `${p.slice(1)}.html`);
// A plain page of pages.yaml to link to (not the home page, no placeholders).
const target = pages.find((p) => (p.kind ?? 'page') === 'page' && p.path !== '/' && !p.path.includes('{'))!;
// A gallery file to show in a post, and a spare copy of it nothing else uses.
const galleryFile = yamlOf<{ images: { file: string }[] }>(SHIPPED_CONTENT, 'data/gallery.yaml').images[0]!.file;

/** Write a post `slug` in `lang` with `body`, dated before the tests' fixed build date. */
function writePost(content: string, slug: string, lang: string, body: string): string {
  const dir = path.join(content, 'blog', slug);
  mkdirSync(dir, { recursive: true });
  const source = `---\ntitle: "Test ${slug}"\nexcerpt: "Excerpt"\ndate: 2025-01-01\ncategory: ${blog.categories[0]}\nauthor: "Tester"\n---\n\n${body}\n`;
  writeFileSync(path.join(dir, `${lang}.md`), source);
  return `blog/${slug}/${lang}.md`;
}

describe('[R-OPS-4] images and links in posts', () => {
  let out: Out;
  let summary: string;
  const postPath = localize(`${blog.path}/ops-a`, other);
  const doc = () => parseHtml(read(out, fileOf(postPath)));

  beforeAll(async () => {
    const content = copyContent(SHIPPED_CONTENT);
    writeFileSync(path.join(content, 'images/unused-probe.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#123456"/></svg>');
    for (const lang of new Set([def, other])) writePost(content, 'ops-b', lang, 'The other post.');
    writePost(
      content,
      'ops-a',
      other,
      [
        `![Absolute alt](/images/${galleryFile})`,
        '',
        `![Relative alt](../../images/${galleryFile})`,
        '',
        `A [same-site link](${target.path}) and a [relative one](ops-b#top).`,
        '',
        '[protocol-relative](//evil.example/x) and [backslash](/\\evil.example/y)',
        '',
        '## Notes',
        '',
        'one',
        '',
        '## Notes',
        '',
        'two',
      ].join('\n'),
    );
    const built = await renderSite(content);
    out = built.out;
    summary = built.warnings;
  }, 300_000);

  it('[R-OPS-4] post images become <picture> with AVIF/WebP srcsets, the real size and lazy loading', () => {
    const pictures = [...doc().querySelectorAll('article picture, main picture')];
    expect(pictures).toHaveLength(2);
    for (const p of pictures) {
      expect([...p.querySelectorAll('source')].map((s) => s.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
      const img = p.querySelector('img')!;
      expect(Number(img.getAttribute('width'))).toBeGreaterThan(0);
      expect(Number(img.getAttribute('height'))).toBeGreaterThan(0);
      expect(img.getAttribute('loading')).toBe('lazy');
      expect(listFiles(out)).toContain(img.getAttribute('src')!.slice(1));
    }
    expect(pictures.map((p) => p.querySelector('img')!.getAttribute('alt'))).toEqual(['Absolute alt', 'Relative alt']);
  });

  it('[R-OPS-4] the post with pictures, resolved links and repeated headings is valid, accessible HTML', async () => {
    const validator = new HtmlValidate({ extends: ['html-validate:standard', 'html-validate:a11y'], rules: { 'no-dup-id': 'error' } });
    const report = await validator.validateString(read(out, fileOf(postPath)), fileOf(postPath));
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`))).toEqual([]);
  });

  it("[R-OPS-4] same-site and relative links point to the post's language", () => {
    const hrefs = Object.fromEntries([...doc().querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]));
    expect(hrefs['same-site link']).toBe(localize(target.path, other));
    expect(hrefs['relative one']).toBe(`${localize(`${blog.path}/ops-b`, other)}#top`);
  });

  it('[R-OPS-4] //host and /\\host links are external: never localised, rel noopener', () => {
    const links = [...doc().querySelectorAll('a')].filter((a) => /evil\.example/.test(a.getAttribute('href') ?? ''));
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['//evil.example/x', '/\\evil.example/y']);
    for (const a of links) expect(a.getAttribute('rel')).toContain('noopener');
  });

  it('[R-OPS-4] two headings with one text get unique ids', () => {
    const ids = [...doc().querySelectorAll('h2[id], h3[id]')].map((h) => h.id);
    expect(ids).toContain('notes');
    expect(ids).toContain('notes-1');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('[R-OPS-4] an image nothing uses is warned about by name and neither encoded nor shipped', () => {
    expect(summary).toMatch(/images\/unused-probe\.svg: warning \[unused-image\]/);
    expect(listFiles(out).filter((f) => f.includes('unused-probe'))).toEqual([]);
  });

  it('[R-OPS-4] the gallery markup states the size the images are served at (read from the files)', () => {
    const home = parseHtml(read(out, 'index.html'));
    const gallery = headOf(home).jsonLd.find((j) => j['@type'] === 'ImageGallery') as { image: { contentUrl: string; width: number; height: number }[] };
    expect(gallery.image.length).toBeGreaterThan(0);
    for (const img of gallery.image) {
      const served = home.querySelector(`img[src="${new URL(img.contentUrl).pathname}"]`);
      expect(served, img.contentUrl).not.toBeNull();
      expect([img.width, img.height]).toEqual([Number(served!.getAttribute('width')), Number(served!.getAttribute('height'))]);
    }
  });
});

describe('[R-OPS-4] broken references in posts are errors with file and line', () => {
  it('[R-OPS-4] a missing image and a relative link to no page name the post file and line', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const file = writePost(content, 'ops-broken', def, 'Intro.\n\n![Lost](/images/no-such.jpg)\n\nSee [there](no-such-post).');
    const r = await runCli(['build', '--content', content, '--out', path.join(tmpDir(), 'dist')]);
    expect(r.code).toBe(1);
    const lines = readFileSync(path.join(content, file), 'utf8').split('\n');
    const at = (s: string) => lines.findIndex((l) => l.includes(s)) + 1;
    expect(r.stderr).toContain(`${file}:${at('no-such.jpg')}`);
    expect(r.stderr).toMatch(/image "\/images\/no-such\.jpg" does not exist/);
    expect(r.stderr).toContain(`${file}:${at('no-such-post')}`);
    expect(r.stderr).toMatch(/link "no-such-post" \(read as [^)]+\) is not a page of the site/);
  });
});
