/**
 * [R-INC-2] Posts' HTML kept between one-shot builds (src/content/markdown-cache.ts): a build into
 * a new folder takes the HTML of unchanged posts from the kept file instead of running markdown,
 * and its output is still a cold build's, byte for byte: after an edit, with a damaged file, after
 * a template edit (the key is the generator's code alone). SITE_MIN_MARKDOWN_HELPER_POSTS=1 makes
 * the fixture's few posts "many".
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { age, build, CACHE, differencesFromCold, fresh, ok, spawnBuild } from '../helpers/incremental.ts';
import { edit, ROOT, tmpDir } from '../helpers/site.ts';
import { KeptMarkdown } from '../../src/content/markdown-cache.ts';

const ENV = { SITE_MIN_MARKDOWN_HELPER_POSTS: '1' };
let content: string;
let posts: number;

/** The kept file of `content` (one per content folder: a save removes those of other generators). */
function keptFile(): string {
  const prefix = `markdown-${createHash('sha256').update(path.resolve(content)).digest('hex').slice(0, 12)}-`;
  const names = readdirSync(CACHE).filter((n) => n.startsWith(prefix) && n.endsWith('.bin'));
  expect(names).toHaveLength(1);
  return path.join(CACHE, names[0]!);
}
const keptSays = (stdout: string) => Number(/markdown of (\d+) posts? kept from earlier builds/.exec(stdout)?.[1] ?? 0);
const newOut = () => path.join(tmpDir('md-kept-'), 'dist');
/** The post pages a build's summary counts, in every language: one per published post file. */
const postPages = (stdout: string) => (/^\s+post\s+(.*)$/m.exec(stdout)?.[1] ?? '').split(/\s+/).reduce((n, c) => n + (Number(c) || 0), 0);

beforeAll(async () => {
  ({ content } = fresh());
  posts = readdirSync(path.join(content, 'blog')).flatMap((slug) => readdirSync(path.join(content, 'blog', slug)).filter((f) => f.endsWith('.md'))).length;
  const first = await ok(build(content, newOut(), [], ENV));
  expect(keptSays(first.stdout)).toBe(0);
});

describe("posts' kept markdown", () => {
  it('a build into a new folder takes every unchanged post from it, and its output is a cold build', async () => {
    const out = newOut();
    const r = await ok(build(content, out, [], ENV));
    // Every published post's page took its HTML from the file (drafts and scheduled posts have no page).
    expect(keptSays(r.stdout)).toBeGreaterThan(0);
    expect(keptSays(r.stdout)).toBeLessThanOrEqual(posts);
    const kept = KeptMarkdown.open(keptFile());
    expect(kept.size).toBe(keptSays(r.stdout));
    kept.close();
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('an edited post is rendered again (the others kept), and the file gains its new HTML', async () => {
    const before = keptSays((await ok(build(content, newOut(), [], ENV))).stdout);
    const slug = readdirSync(path.join(content, 'blog')).sort()[0]!;
    const file = `blog/${slug}/en.md`;
    const source = readFileSync(path.join(content, file), 'utf8');
    writeFileSync(path.join(content, file), `${source}\n\nA sentence kept nowhere yet, Ωμέγα.\n`);
    const out = newOut();
    const r = await ok(build(content, out, [], ENV));
    expect(keptSays(r.stdout)).toBe(before - 1);
    expect(await differencesFromCold(content, out)).toEqual([]);
    expect(readFileSync(path.join(out, 'blog', `${slug}.html`), 'utf8')).toContain('A sentence kept nowhere yet, Ωμέγα.');
    // Kept for the next build.
    expect(keptSays((await ok(build(content, newOut(), [], ENV))).stdout)).toBe(before);
  });

  it('a damaged file costs markdown, not correctness, and is written anew', async () => {
    const file = keptFile();
    const bytes = readFileSync(file);
    // Cut inside the last entry, then garbage: nothing after the cut may be taken.
    writeFileSync(file, Buffer.concat([bytes.subarray(0, bytes.length - 40), Buffer.from('<script>alert(1)</script>')]));
    const out = newOut();
    await ok(build(content, out, [], ENV));
    expect(await differencesFromCold(content, out)).toEqual([]);
    writeFileSync(file, 'garbage\n');
    const out2 = newOut();
    const r = await ok(build(content, out2, [], ENV));
    expect(keptSays(r.stdout)).toBe(0);
    expect(await differencesFromCold(content, out2)).toEqual([]);
    const again = KeptMarkdown.open(keptFile());
    expect(again.size).toBeGreaterThan(0);
    again.close();
  });

  it("a template edit keeps the posts' HTML (its key is the generator's code, not the templates')", async () => {
    // (With the client beside them: the templates import from it.)
    const site = tmpDir('md-kept-templates-');
    const templates = path.join(site, 'templates');
    for (const dir of ['templates', 'client']) cpSync(path.join(ROOT, dir), path.join(site, dir), { recursive: true });
    const warm = await ok(build(content, newOut(), ['--templates', templates], ENV));
    const kept = keptSays(warm.stdout);
    expect(kept).toBeGreaterThan(0);
    const name = keptFile();
    edit(templates, 'pages/Post.tsx', /<article/, '<article data-edited=""');
    const out = newOut();
    const r = await ok(build(content, out, ['--templates', templates], ENV));
    expect(keptSays(r.stdout)).toBe(kept);
    expect(keptFile()).toBe(name);
    expect(await differencesFromCold(content, out, ['--templates', templates])).toEqual([]);
    expect(readFileSync(path.join(out, 'blog', `${readdirSync(path.join(content, 'blog')).sort()[1]}.html`), 'utf8')).toContain('data-edited');
  });
});

describe("posts' kept markdown on page workers", () => {
  it('workers take kept posts and add the ones they render: the output is still a cold build', async () => {
    // The main thread slowed down (20 ms after each page it writes), so the page worker renders most pages.
    const hook = path.join(tmpDir('md-kept-slow-'), 'slow-main.cjs');
    writeFileSync(
      hook,
      `const fs = require('fs');
if (require('worker_threads').isMainThread) {
  const writevSync = fs.writevSync;
  fs.writevSync = function (...a) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    return writevSync.apply(this, a);
  };
}
`,
    );
    const threads = { ...ENV, SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${hook}` };
    const out = newOut();
    // (Spawned: page workers run the CLI's bundle.)
    const r = await ok(spawnBuild(content, out, [], threads));
    expect(r.stdout).toMatch(/rendered on 2 threads/);
    expect(await differencesFromCold(content, out)).toEqual([]);
    const total = postPages(r.stdout);
    expect(total).toBeGreaterThan(0);
    expect(keptSays(r.stdout)).toBe(total);
    // What workers render and add is kept for the next build: the file gone, a pool build makes it again.
    rmSync(keptFile());
    const again = await ok(spawnBuild(content, newOut(), [], threads));
    expect(keptSays(again.stdout)).toBe(0);
    const kept = KeptMarkdown.open(keptFile());
    expect(kept.size).toBe(total);
    kept.close();
  });
});

describe("posts' kept markdown and the markdown helper", () => {
  it('the helper thread is handed only the posts not kept (their bodies are not even read for it)', async () => {
    // A content folder of its own, its files older than the clock's tick from its first build on:
    // their stamps alone vouch for them, and the posts' cache keeps those stamps.
    const own = fresh().content;
    age(own);
    const first = await ok(spawnBuild(own, newOut(), [], ENV));
    expect(keptSays(first.stdout)).toBe(0);
    const total = postPages(first.stdout);
    expect(total).toBeGreaterThan(0);
    // A preload counting the posts' files read on the main thread, written to $HOOK_COUNT at exit.
    const hook = path.join(tmpDir('md-kept-hook-'), 'count-reads.cjs');
    writeFileSync(
      hook,
      `const fs = require('fs');
const { isMainThread } = require('worker_threads');
const orig = fs.readFileSync;
let n = 0;
fs.readFileSync = function (p, ...a) {
  if (isMainThread && /[\\/]blog[\\/].*\\.md$/.test(String(p))) n++;
  return orig.call(this, p, ...a);
};
if (isMainThread) process.on('exit', () => fs.writeFileSync(process.env.HOOK_COUNT, String(n)));
`,
    );
    const count = path.join(tmpDir('md-kept-count-'), 'n');
    const r = await ok(spawnBuild(own, newOut(), [], { ...ENV, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${hook}`, HOOK_COUNT: count }));
    expect(keptSays(r.stdout)).toBe(total);
    expect(r.stdout).not.toMatch(/markdown of \d+ posts? on a helper thread/);
    // No post's file was read: each kept post's digest came with the posts' cache, and its HTML from the kept file.
    expect(Number(readFileSync(count, 'utf8'))).toBe(0);
    // One post edited: the helper renders that one alone.
    const slug = readdirSync(path.join(own, 'blog')).sort()[2]!;
    writeFileSync(path.join(own, 'blog', slug, 'es.md'), `${readFileSync(path.join(own, 'blog', slug, 'es.md'), 'utf8')}\n\nOtra frase.\n`);
    const out = newOut();
    const edited = await ok(spawnBuild(own, out, [], ENV));
    // (Rendered by the helper, or here if its HTML was not back in time: never more than that one.)
    expect(Number(/markdown of (\d+) posts? on a helper thread/.exec(edited.stdout)?.[1] ?? 0)).toBeLessThanOrEqual(1);
    expect(keptSays(edited.stdout)).toBe(total - 1);
    expect(await differencesFromCold(own, out)).toEqual([]);
  });
});
