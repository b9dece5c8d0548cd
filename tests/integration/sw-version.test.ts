/** The service worker's cache version follows the bytes of what it caches, not just asset names. */
import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { copyContent, edit, EPOCH, htmlFiles, read, SHIPPED_CONTENT, tmpDir, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { WatchSession } from '../../src/watch/session.ts';
import { bundleServiceWorker } from '../../src/assets/bundle.ts';

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

  it('[R-VIS-5] watch: the worker follows the offline page it kept or rendered again (its bytes come from the writer, not a second render)', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const outDir = path.join(tmpDir('site-watch-sw-'), 'dev');
    const session = new WatchSession({ ...resolveConfig({ content, out: outDir, quiet: true }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) });
    const worker = () => readFileSync(path.join(outDir, 'sw.js'), 'utf8');
    expect((await session.rebuild([])).ok).toBe(true);
    const first = worker();
    // A post edit keeps the offline pages (not rendered again): the worker stays as it is.
    const slug = readdirSync(path.join(content, 'blog')).sort()[0]!;
    const post = path.join(content, 'blog', slug, `${site.defaultLanguage}.md`);
    appendFileSync(post, '\n\nA sentence added in watch.\n');
    const kept = await session.rebuild([post]);
    expect(kept.ok, kept.error).toBe(true);
    expect(kept.changed).not.toContain('offline.html');
    expect(worker()).toBe(first);
    // The phone is on the offline pages: they are rendered again and the worker's version changes.
    edit(content, 'site.yaml', `phone: "${site.contact.phone}"`, `phone: "${otherPhone}"`);
    const phone = await session.rebuild([path.join(content, 'site.yaml')]);
    expect(phone.ok, phone.error).toBe(true);
    expect(worker()).not.toBe(first);
    // The same bytes a cold build of that content makes.
    const cold = await renderSite(content);
    expect(worker()).toBe(sw(cold.out));
  }, 120_000);

  it('a worker that imports a module is bundled again when only that module changed (its own text is not all it is made of)', async () => {
    const client = path.join(tmpDir(), 'client');
    const cache = path.join(path.dirname(client), 'cache');
    mkdirSync(client);
    writeFileSync(path.join(client, 'sw.ts'), "import { tag } from './tag.ts';\nself.addEventListener('install', () => console.log(tag, __CACHE__, __PRECACHE__, __OFFLINE__));\n");
    const made = async (tag: string) => {
      writeFileSync(path.join(client, 'tag.ts'), `export const tag = '${tag}';\n`);
      return String((await bundleServiceWorker(client, [], {}, [], cache)).content);
    };
    expect(await made('first-tag')).toContain('first-tag');
    expect(await made('other-tag')).toContain('other-tag');
  });
});
