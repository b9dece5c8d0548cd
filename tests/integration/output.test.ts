/** Escaping of hostile content, deterministic output, base URL override and the build summary. */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite, copyContent, edit, htmlFiles, listFiles, read } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';

const HOSTILE = `</script><script>alert("x")</script><img src=x onerror=alert(1)> "quoted" & 'single' \u2028`;

describe('[R-SEO-9] hostile text in content', () => {
  it('is escaped everywhere: visible text, attributes and JSON-LD', async () => {
    const content = copyContent();
    const yamlText = JSON.stringify(HOSTILE);
    // The home page's title and the hero's heading, whatever the shipped copy says.
    const en = parseYaml(readFileSync(path.join(content, 'i18n/en.yaml'), 'utf8')) as { page: { home: { title: string } }; hero: { title: string } };
    en.page.home.title = HOSTILE;
    en.hero.title = HOSTILE;
    writeFileSync(path.join(content, 'i18n/en.yaml'), stringifyYaml(en));
    edit(content, 'data/venues.yaml', 'name: Luxtal Balboa', `name: ${yamlText}`);
    edit(content, 'blog/monaco-grand-prix/en.md', /^title: .*$/m, `title: ${yamlText}`);
    edit(content, 'blog/monaco-grand-prix/en.md', /\n## /, `\n<script>alert("body")</script>\n\n[click](javascript:alert(1))\n\n## `);
    const { out } = await renderSite(content);
    for (const f of htmlFiles(out)) {
      const html = read(out, f);
      expect(html, f).not.toContain('<script>alert');
      expect(html, f).not.toContain('<img src=x');
      expect(html, f).not.toMatch(/href="javascript:/i);
    }
    const home = parseHtml(read(out, 'index.html'));
    expect(home.querySelector('h1')!.textContent).toBe(HOSTILE);
    expect(home.querySelector('title')!.textContent).toContain(HOSTILE);
    expect(home.querySelector('meta[property="og:title"]')!.getAttribute('content')).toContain(HOSTILE);
    expect([...home.querySelectorAll('.venue h3')].map((h) => h.textContent)).toContain(HOSTILE);
    const post = parseHtml(read(out, 'blog/monaco-grand-prix.html'));
    const ld = headOf(post).jsonLd.find((d) => d['@type'] === 'BlogPosting')!;
    expect(ld.headline).toBe(HOSTILE); // the data survives exactly, only its encoding changed
    expect(post.querySelector('.prose')!.textContent).toContain('<script>alert("body")</script>');
    // Every JSON-LD block is closed by its own </script>, never by content.
    const raw = read(out, 'blog/monaco-grand-prix.html');
    const blocks = raw.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)!;
    for (const b of blocks) expect(b.slice(0, -9)).not.toMatch(/<\/script/i);
  });
});

describe('[R-BUILD-4][R-BUILD-11] deterministic output', () => {
  it('two builds of the same content are byte-identical', async () => {
    const content = copyContent();
    // Side by side: half the wall time of one after the other, and parallel builds must agree too.
    const [a, b] = await Promise.all([buildSite(content), buildSite(content)]);
    const files = listFiles(a.out);
    expect(listFiles(b.out)).toEqual(files);
    for (const f of files) expect(readFileSync(path.join(b.out, f)).equals(readFileSync(path.join(a.out, f))), f).toBe(true);
  });

  it('the build date comes from SOURCE_DATE_EPOCH', async () => {
    const { runCli, tmpDir } = await import('../helpers/site.ts');
    const out = path.join(tmpDir(), 'dist');
    const r = await runCli(['build', '--content', copyContent(), '--out', out], { SOURCE_DATE_EPOCH: String(Date.UTC(2031, 5, 1) / 1000) });
    expect(r.code).toBe(0);
    expect(parseHtml(read(out, 'index.html')).querySelector('.footer-notes')!.textContent).toContain('2031');
  });
});

describe('[R-BUILD-1] build options and summary', () => {
  it('--base-url changes canonicals, hreflang, sitemap and robots', async () => {
    const { out } = await renderSite(copyContent(), { baseUrl: 'https://staging.example.org/' });
    expect(headOf(parseHtml(read(out, 'es/rates.html'))).canonical).toBe('https://staging.example.org/es/rates');
    expect(read(out, 'sitemap.xml')).toContain('<loc>https://staging.example.org/</loc>');
    expect(read(out, 'robots.txt')).toContain('https://staging.example.org/sitemap.xml');
  });

  it('prints pages by kind and language, bytes, time and warnings', async () => {
    const { result } = await buildSite(copyContent());
    expect(result.stdout).toMatch(/^Built \d+ pages in \d+ ms → .*\/ \(\d+ files, [\d.]+ (KB|MB)\)/);
    expect(result.stdout).toMatch(/ {2}kind\s+en\s+es\s+ru\s+el/);
    expect(result.stdout).toMatch(/ {2}page\s+13\s+13\s+13\s+13/);
    expect(result.stdout).toMatch(/ {2}landing\s+14\s+-\s+-\s+-/);
    expect(result.stdout).toMatch(/\d+ warning\(s\):/);
  });

  it('--quiet prints nothing on success', async () => {
    const quiet = await buildSite(copyContent(), ['--quiet']);
    expect(quiet.result.stdout).toBe('');
  });
});

describe('[R-HOST-1] the static target says what it cannot send', () => {
  it('a --host static build says in its summary that no headers are sent and what the host must add', async () => {
    const { result } = await buildSite(copyContent(), ['--host', 'static']);
    expect(result.stdout).toMatch(/host: static .*no response headers are sent/);
    for (const h of ['X-Frame-Options: DENY', 'Strict-Transport-Security', 'X-Content-Type-Options: nosniff']) expect(result.stdout).toContain(h);
    const netlify = await buildSite(copyContent(), ['--host', 'netlify']);
    expect(netlify.result.stdout).toMatch(/^ {2}host: netlify$/m);
  });
});
