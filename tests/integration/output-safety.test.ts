/** The build replaces only an output folder that is missing, empty or its own (marker). */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyContent, EPOCH, listFiles, read, ROOT, runCli, runMain, tmpDir } from '../helpers/site.ts';

/** Every file under a folder with its bytes, to prove a refused build touched nothing. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), 'base64')]));
}

describe('[R-SAFE-1] output folder safety', () => {
  it('refuses an unrelated folder holding files: exit 2, clear message, files intact', async () => {
    const out = path.join(tmpDir(), 'notes');
    mkdirSync(path.join(out, 'sub'), { recursive: true });
    writeFileSync(path.join(out, 'thesis.txt'), 'years of work');
    writeFileSync(path.join(out, 'sub', 'data.yaml'), 'a: 1\n');
    const before = snapshot(out);
    const r = await runCli(['build', '--content', copyContent(), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did not write.*Nothing was changed/s);
    expect(snapshot(out)).toEqual(before);
    expect(existsSync(path.join(path.dirname(out), '.notes.builds'))).toBe(false);
  });

  it('refuses a file as the output path', async () => {
    const out = path.join(tmpDir(), 'notes.yaml');
    writeFileSync(out, 'keep: me\n');
    const r = await runCli(['build', '--content', copyContent(), '--out', out]);
    expect(r.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('keep: me\n');
  });

  it('refuses the images folder of the content being built (the original photos)', async () => {
    const content = copyContent();
    const images = path.join(content, 'images');
    const before = snapshot(images);
    const r = await runCli(['build', '--content', content, '--out', images]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inside the content folder|contains the content folder/);
    expect(snapshot(images)).toEqual(before);
  });

  it('refuses a folder that contains the content folder', async () => {
    const content = copyContent();
    const r = await runCli(['build', '--content', content, '--out', path.dirname(content)]);
    expect(r.code).toBe(2);
    expect(existsSync(path.join(content, 'site.yaml'))).toBe(true);
  });

  // One CLI build a test (both in one test took 8.0 s in CI beside four busy loops).
  let marked: { content: string; out: string } | undefined;
  it('writes a marker outside the web root', async () => {
    const content = copyContent();
    const out = path.join(tmpDir(), 'dist');
    expect((await runCli(['build', '--content', content, '--out', out, '-q'])).code).toBe(0);
    // The output path is a link into the builds folder, which holds the marker; the site does not.
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    const builds = path.join(path.dirname(out), '.dist.builds');
    expect(path.resolve(path.dirname(out), readlinkSync(out)).startsWith(builds + path.sep)).toBe(true);
    expect(existsSync(path.join(builds, 'site-output.json'))).toBe(true);
    expect(listFiles(out).some((f) => f.includes('site-output'))).toBe(false);
    marked = { content, out };
  });

  it('replaces its own output on the next build', async () => {
    expect(marked, 'the first build (the test above) did not run').toBeDefined();
    const { content, out } = marked!;
    writeFileSync(path.join(content, 'i18n', 'en.yaml'), readFileSync(path.join(content, 'i18n', 'en.yaml'), 'utf8') + '\n');
    expect((await runCli(['build', '--content', content, '--out', out, '-q'])).code).toBe(0);
    expect(read(out, 'index.html')).toContain('<html');
  });

  it('refuses to replace its own output while the live build holds files no build wrote (a page, a dotfolder, a host-folder note): exit 2, named, kept', async () => {
    expect(marked, 'the first build (the tests above) did not run').toBeDefined();
    const { content, out } = marked!;
    const host = `${out}.host`;
    writeFileSync(path.join(out, 'google1234.html'), 'google-site-verification: google1234.html');
    mkdirSync(path.join(out, '.well-known'), { recursive: true });
    writeFileSync(path.join(out, '.well-known', 'security.txt'), 'Contact: mailto:x@example.com');
    writeFileSync(path.join(host, 'notes.txt'), 'my deploy notes');
    const pages = snapshot(out);
    const r = await runCli(['build', '--content', content, '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`holds 3 file(s) or folder(s) that no build wrote (${['.well-known/', 'google1234.html', `${path.basename(host)}/notes.txt`].sort().join(', ')})`);
    expect(r.stderr).toMatch(/nothing was changed/);
    expect(snapshot(out)).toEqual(pages);
    expect(readFileSync(path.join(out, '.well-known', 'security.txt'), 'utf8')).toBe('Contact: mailto:x@example.com');
    expect(readFileSync(path.join(host, 'notes.txt'), 'utf8')).toBe('my deploy notes');
    // Moved away, the next build goes on.
    rmSync(path.join(out, 'google1234.html'));
    rmSync(path.join(out, '.well-known'), { recursive: true });
    rmSync(path.join(host, 'notes.txt'));
    expect((await runCli(['build', '--content', content, '--out', out, '-q'])).code).toBe(0);
  });

  // Two tests, one CLI build each (together one test took 10.2 s in CI beside four busy loops);
  // the second migrates a copy of the first one's output.
  let content: string;
  let empty: string;
  it('never deletes what someone else put into the builds folder beside the output, marked or not', async () => {
    const content = copyContent();
    const parent = tmpDir();
    const out = path.join(parent, 'dist');
    const builds = path.join(parent, '.dist.builds');
    // A folder of that name made by someone else (no marker) before the first build.
    mkdirSync(builds);
    writeFileSync(path.join(builds, 'mine.txt'), 'mine');
    expect((await runMain(['build', '--content', content, '--out', out, '-q'])).code).toBe(0);
    mkdirSync(path.join(builds, 'notes'));
    writeFileSync(path.join(builds, 'notes', 'todo.txt'), 'mine too');
    // Named like a build (a word, a hyphen, a number) but not one: its "time" is no time a build had.
    mkdirSync(path.join(builds, 'backup-2024'));
    writeFileSync(path.join(builds, 'backup-2024', 'site.tar'), 'keep');
    writeFileSync(path.join(content, 'i18n', 'en.yaml'), readFileSync(path.join(content, 'i18n', 'en.yaml'), 'utf8') + '\n');
    expect((await runMain(['build', '--content', content, '--out', out, '-q'])).code).toBe(0);
    expect(readFileSync(path.join(builds, 'mine.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(path.join(builds, 'notes', 'todo.txt'), 'utf8')).toBe('mine too');
    expect(readFileSync(path.join(builds, 'backup-2024', 'site.tar'), 'utf8')).toBe('keep');
    // Its own leftovers still go: only the live build's folder stays of the two builds.
    expect(readdirSync(builds).filter((n) => /^[0-9a-z]+-\d+$/.test(n) && n !== 'backup-2024')).toHaveLength(1);
  });

  it('accepts an empty folder', async () => {
    content = copyContent();
    empty = path.join(tmpDir(), 'dist');
    mkdirSync(empty);
    expect((await runCli(['build', '--content', content, '--out', empty, '-q'])).code).toBe(0);
    expect(lstatSync(empty).isSymbolicLink()).toBe(true);
  });

  it('migrates a real output folder written by the earlier tool', async () => {
    expect(empty, 'the build into an empty folder (the test above) did not run').toBeDefined();
    // The earlier tool wrote a real folder: same files, no link, no marker.
    const legacy = path.join(tmpDir(), 'dist');
    cpSync(empty, legacy, { recursive: true, dereference: true });
    expect(lstatSync(legacy).isDirectory()).toBe(true);
    const files = listFiles(legacy);
    const r = await runCli(['build', '--content', content, '--out', legacy, '-q']);
    expect(r.stderr).not.toMatch(/error|refused|did not write/i);
    expect(r.code).toBe(0);
    expect(lstatSync(legacy).isSymbolicLink()).toBe(true);
    expect(listFiles(legacy)).toEqual(files);
    const builds = listFiles(path.join(path.dirname(legacy), '.dist.builds'));
    expect(builds.filter((f) => f.endsWith('/index.html') && !f.startsWith('live/'))).toHaveLength(1); // the old copy is gone (live/ is the link to the one build)
  });
});

/**
 * A preload for the CLI: writing the page $HOOK_FULL of a new build ('*': any page) fails as a
 * full disk does (ENOSPC), on the thread $HOOK_THREAD names ('main', 'worker', or 'helper': the
 * markdown helper's, where the write thread runs).
 */
const FULL = path.join(tmpDir('disk-full-hook-'), 'full.cjs');
writeFileSync(
  FULL,
  `const fs = require('fs');
const { isMainThread } = require('worker_threads');
const page = process.env.HOOK_FULL;
const full = (p) => String(p).includes('.builds/') && (page === '*' ? String(p).endsWith('.html') : String(p).endsWith('/' + page)) && isMainThread === (process.env.HOOK_THREAD === 'main') && (process.env.HOOK_THREAD !== 'helper' || require('worker_threads').workerData?.role === 'site-markdown');
const fail = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
for (const name of ['openSync', 'writeFileSync']) {
  const orig = fs[name];
  fs[name] = function (p, ...a) {
    if (full(p)) throw fail();
    return orig.call(this, p, ...a);
  };
}
require('module').syncBuiltinESMExports();
`,
);

describe('[R-SAFE-2] a disk that fills up during the build', () => {
  it.each<{ thread: string; page: string; env: Record<string, string> }>([
    { thread: 'main', page: 'about.html', env: { SITE_RENDER_THREADS: '1' } },
    // A page worker's failure is named the same way (render/parallel.ts passes it on): any page a worker writes.
    { thread: 'worker', page: '*', env: { SITE_RENDER_THREADS: '3', SITE_MIN_PARALLEL_ROUTES: '10' } },
    // The write thread's too (src/output/write-thread.ts), here on the markdown helper's thread (on a
    // thread of its own it runs the same page writes): whichever page it writes first.
    { thread: 'helper', page: '*', env: { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1000000', SITE_MIN_WRITE_THREAD_PAGES: '10', SITE_MIN_MARKDOWN_HELPER_POSTS: '1' } },
  ])('a page the disk refuses on the $thread thread: exit 1 naming it and what to do, the previous output untouched, no build left behind', async ({ thread, page, env }) => {
    const content = copyContent();
    const out = path.join(tmpDir(), 'dist');
    expect((await runCli(['build', '--content', content, '--out', out, '-q'])).code).toBe(0);
    const before = snapshot(out);
    const builds = readdirSync(path.join(path.dirname(out), '.dist.builds')).sort();
    // A day later: every page is rendered again (a page carried over is linked, not written).
    const r = await runCli(['build', '--content', content, '--out', out], { ...env, SOURCE_DATE_EPOCH: String(Number(EPOCH) + 86_400), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${FULL}`, HOOK_FULL: page, HOOK_THREAD: thread });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('Build failed (write)');
    const named = page === '*' ? '[^\\s]+\\.html' : page.replace('.', '\\.');
    expect(r.stderr).toMatch(new RegExp(`${path.relative(ROOT, out).replace(/[.]/g, '\\.')}/${named}: error \\[write\\] could not be written: the disk is full \\(ENOSPC\\): free some space on it, then build again`));
    expect(r.stderr).toMatch(/previous output was left untouched/);
    expect(snapshot(out)).toEqual(before);
    expect(readdirSync(path.join(path.dirname(out), '.dist.builds')).sort()).toEqual(builds);
  });
});
