/** The service worker's cache version follows the bytes of what it caches, not just asset names. */
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { copyContent, edit, htmlFiles, read, SHIPPED_CONTENT, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';

const site = load(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')) as { contact: { phone: string }; defaultLanguage: string };
/** A phone number that differs from the shipped one in its last digit. */
const otherPhone = site.contact.phone.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

describe('[R-VIS-5] service worker version', () => {
  // One build per test (not three at once), so no single test holds a busy 2-core machine for long.
  let base: Out;
  const sw = (out: Out) => read(out, 'sw.js');

  it('[R-VIS-5] the shipped content builds a worker that caches the offline page', async () => {
    ({ out: base } = await renderSite(copyContent(SHIPPED_CONTENT)));
    expect(sw(base)).toMatch(/"":\s*"\/[^"]+"/);
  });

  it('[R-VIS-5] changing the phone number changes sw.js (the offline page it caches shows it)', async () => {
    const phone = copyContent(SHIPPED_CONTENT);
    edit(phone, 'site.yaml', `phone: "${site.contact.phone}"`, `phone: "${otherPhone}"`);
    const b = await renderSite(phone);
    // The default language's offline page, as the worker names it (key '' in its offline map).
    const offlineFile = `${/"":\s*"\/([^"]+)"/.exec(sw(base))![1]}.html`;
    // The premise: the offline page carries the phone, so its cached copy must be refreshed.
    expect(read(b.out, offlineFile)).not.toBe(read(base, offlineFile));
    expect(sw(b.out)).not.toBe(sw(base));
  });

  it('[R-VIS-5] a post edit (a page the worker does not cache) leaves sw.js as it is', async () => {
    const post = copyContent(SHIPPED_CONTENT);
    const slug = readdirSync(path.join(post, 'blog')).sort()[0]!;
    const sentence = 'One more sentence that only this post shows.';
    appendFileSync(path.join(post, 'blog', slug, `${site.defaultLanguage}.md`), `\n\n${sentence}\n`);
    const c = await renderSite(post);
    expect(htmlFiles(c.out).filter((f) => read(c.out, f).includes(sentence))).toHaveLength(1);
    expect(sw(c.out)).toBe(sw(base));
  });
});
