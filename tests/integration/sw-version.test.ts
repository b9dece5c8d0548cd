/** The service worker's cache version follows the bytes of what it caches, not just asset names. */
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildSite, copyContent, edit, read, SHIPPED_CONTENT } from '../helpers/site.ts';

const site = load(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')) as { contact: { phone: string }; defaultLanguage: string };
/** A phone number that differs from the shipped one in its last digit. */
const otherPhone = site.contact.phone.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

describe('[R-VIS-5] service worker version', () => {
  it('[R-VIS-5] changing the phone number changes sw.js (the offline page it caches shows it); a post edit does not', async () => {
    const base = copyContent(SHIPPED_CONTENT);
    const phone = copyContent(SHIPPED_CONTENT);
    edit(phone, 'site.yaml', `phone: "${site.contact.phone}"`, `phone: "${otherPhone}"`);
    const post = copyContent(SHIPPED_CONTENT);
    const slug = readdirSync(path.join(post, 'blog')).sort()[0]!;
    appendFileSync(path.join(post, 'blog', slug, `${site.defaultLanguage}.md`), '\n\nOne more sentence that only this post shows.\n');

    const [a, b, c] = await Promise.all([buildSite(base), buildSite(phone), buildSite(post)]);
    const sw = (out: string) => read(out, 'sw.js');
    // The default language's offline page, as the worker names it (key '' in its offline map).
    const offlineFile = `${/"":\s*"\/([^"]+)"/.exec(sw(a.out))![1]}.html`;
    // The premise: the offline page carries the phone, so its cached copy must be refreshed.
    expect(read(b.out, offlineFile)).not.toBe(read(a.out, offlineFile));
    expect(sw(b.out)).not.toBe(sw(a.out));
    // An unrelated page changed: the worker and its cache stay as they are.
    expect(sw(c.out)).toBe(sw(a.out));
  });
});
