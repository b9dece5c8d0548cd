/**
 * R-VIS-8: every HTML document arrives within the first round trip (14 KB compressed: a new TCP
 * connection's first window of 10 segments), measured as gzip -9 of the built file. The home page
 * keeps only its first screen's rules inline and links the whole stylesheet where that screen ends
 * (templates/components/Stylesheet.tsx; in Chromium: tests/e2e/first-screen.test.ts).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { htmlFiles, read } from '../helpers/site.ts';
import { shippedOut } from '../helpers/shared.ts';
import { shipped } from '../helpers/content.ts';
import { parseHtml } from '../helpers/dom.ts';

/** 14 KB: what a server sends before the first acknowledgement (initial congestion window 10 x 1,460 B, less headers). */
export const FIRST_ROUND_TRIP = 14 * 1024;

const out = shippedOut();
const c = shipped();
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

describe('[R-VIS-8] every document within the first round trip', () => {
  it('every page in every language (404s, redirects and landing pages too) is at most 14,336 bytes gzip -9', () => {
    const files = htmlFiles(out);
    for (const lang of c.languages) expect(files, `no home page in ${lang}`).toContain(c.file('/', lang));
    const over = files
      .map((f) => ({ f, bytes: gzipSync(read(out, f), { level: 9 }).length }))
      .filter((p) => p.bytes > FIRST_ROUND_TRIP)
      .map((p) => `${p.f}: ${p.bytes} B`);
    expect(over).toEqual([]);
  });

  it('the home page inlines its first screen and links the whole stylesheet, once, in the body where that screen ends', () => {
    const home = c.pages.find((p: { template: string }) => p.template === 'home')!.path;
    for (const lang of c.languages) {
      const file = c.file(home, lang);
      const doc = parseHtml(read(out, file));
      const links = [...doc.querySelectorAll('link[rel="stylesheet"]')].filter((l) => !l.closest('noscript'));
      expect(links, file).toHaveLength(1);
      expect(links[0]!.closest('body'), `${file}: the stylesheet is linked in the head (it would hold up the first paint)`).not.toBeNull();
      // Above it: the hero, the call to action; below it: the sections.
      const html = read(out, file);
      const at = html.indexOf(`<link rel="stylesheet" href="${links[0]!.getAttribute('href')}"`);
      expect(at, file).toBeGreaterThan(0);
      expect(html.indexOf('<h1'), file).toBeLessThan(at);
      expect(html.indexOf('class="section"'), file).toBeGreaterThan(at);
    }
  });

  it('a linked stylesheet is the whole one: the bytes other pages inline, named by the policy; the first screen is its beginning', () => {
    const whole = new Set<string>();
    const parts = new Set<string>();
    for (const f of htmlFiles(out)) {
      const doc = parseHtml(read(out, f));
      const style = doc.querySelector('style')?.textContent;
      if (style === undefined) continue;
      const link = [...doc.querySelectorAll('body link[rel="stylesheet"]')];
      if (link.length === 0) whole.add(style);
      else {
        parts.add(style);
        const href = link[0]!.getAttribute('href')!;
        expect(href, f).toMatch(/^\/assets\/site\.[0-9a-f]{8}\.css$/);
        whole.add(read(out, href.slice(1)));
      }
    }
    // One whole stylesheet (inline or linked, the same bytes) and at most one first-screen part of it.
    expect(whole.size).toBe(1);
    expect(parts.size).toBeLessThanOrEqual(1);
    const [sheet] = [...whole];
    const policy = read(out, '_headers');
    for (const text of [...whole, ...parts]) expect(policy).toContain(`'sha256-${sha256(text)}'`);
    // The whole stylesheet begins with the first screen's rules, the same bytes in the same order:
    // linking it after them changes no rule's place in the cascade.
    for (const part of parts) expect(sheet!.startsWith(part.trimEnd()), 'the whole stylesheet does not begin with the first screen').toBe(true);
  });
});
