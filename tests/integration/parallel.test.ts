/**
 * Large builds render on every core (src/render/parallel.ts). Whatever thread renders a page, the
 * output is the same bytes, and a page that fails in a worker fails the build like anywhere else.
 * SITE_MIN_PARALLEL_ROUTES=1 makes a small fixture take the parallel path (SITE_MIN_WRITE_THREAD_PAGES=1
 * the write thread's: src/output/write-thread.ts); SITE_RENDER_THREADS sets the thread count
 * whatever the machine has.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, edit, listFiles, ROOT, runCli, tmpDir, type CliResult } from '../helpers/site.ts';
import { forgetMarkdown, recordFile } from '../helpers/incremental.ts';

let content: string;
const build = (out: string, env: Record<string, string>, extra: string[] = []): Promise<CliResult> =>
  runCli(['build', '--content', content, '--out', out, ...extra], env);
const warningsOf = (stdout: string) => stdout.split('\n').filter((l) => l.includes('warning ['));

beforeAll(() => {
  content = copyContent();
  // 60 more posts in two languages, so there are enough pages for every thread to take some.
  for (let i = 1; i <= 60; i++) {
    const slug = `note-${String(i).padStart(2, '0')}`;
    mkdirSync(path.join(content, 'blog', slug), { recursive: true });
    for (const lang of ['en', 'es'])
      writeFileSync(
        path.join(content, 'blog', slug, `${lang}.md`),
        `---\ntitle: "Note ${i} <${lang}> & co"\nexcerpt: "Short."\ndate: 2024-03-${String((i % 28) + 1).padStart(2, '0')}\ncategory: culture\nauthor: "Aurelia"\ntags: [art]\n---\n\n## Part ${i}\n\nSome *text* with a [link](/contact) and <script>alert(${i})</script>.\n`,
      );
  }
});

describe('parallel rendering', () => {
  // One build per test (not three at once), so no single test holds a busy 2-core machine for long;
  // the later tests compare against the first one's output.
  const summary = (s: string) => s.split('\n').filter((l) => /^\s+(kind|page|post|blog|category|redirect|landing)\b/.test(l));
  let one: string;
  let reference: CliResult;

  it('renders on 1 thread and says so', async () => {
    one = path.join(tmpDir(), 'dist');
    reference = await build(one, { SITE_RENDER_THREADS: '1', SITE_MIN_PARALLEL_ROUTES: '1', SITE_MIN_MARKDOWN_HELPER_POSTS: '1' });
    expect(reference.code, reference.stderr).toBe(0);
    expect(reference.stdout).toMatch(/rendered on 1 thread\n/);
    expect(listFiles(one).filter((f) => f.startsWith('es/blog/note-')).length).toBe(60);
  });

  /** The same page counts, warnings (missing texts are gathered from every thread) and files, byte for byte. */
  const expectSameOutput = (r: CliResult, dir: string) => {
    expect(summary(r.stdout)).toEqual(summary(reference.stdout));
    expect(warningsOf(r.stdout)).toEqual(warningsOf(reference.stdout));
    const files = listFiles(one);
    expect(listFiles(dir)).toEqual(files);
    for (const f of files) expect(readFileSync(path.join(dir, f)).equals(readFileSync(path.join(one, f))), f).toBe(true);
  };

  /**
   * A preload for the CLI: the write thread (on a thread of its own) pauses $HOOK_SLOW_MS after each
   * page it writes and, with $HOOK_READY, writes its process id there once it wrote one.
   */
  const slowWrites = (): string => {
    const hook = path.join(tmpDir(), 'slow-writes.cjs');
    writeFileSync(
      hook,
      `const fs = require('fs');
const { workerData } = require('worker_threads');
if (workerData && workerData.role === 'site-writer') {
  const writevSync = fs.writevSync;
  fs.writevSync = function (...a) {
    const n = writevSync.apply(this, a);
    if (process.env.HOOK_READY && !fs.existsSync(process.env.HOOK_READY)) fs.writeFileSync(process.env.HOOK_READY, String(process.pid));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.HOOK_SLOW_MS));
    return n;
  };
}
`,
    );
    return hook;
  };

  /** What the build into `dir` recorded its pages read and where their pieces sit (the next build's splicing needs it exact). */
  const readsOf = (dir: string) => {
    const { build: _build, ...reads } = JSON.parse(readFileSync(recordFile(dir).replace(/\.json$/, '.reads.json'), 'utf8')) as { build: string };
    return reads;
  };

  it('writes byte-identical output and reads with the markdown helper, its thread writing the pages too, and says so', async () => {
    // (The helper without page writes: the incremental build with the helper, below.)
    const helped = path.join(tmpDir(), 'dist');
    // (None of the posts' HTML kept by the builds before: the helper renders them all.)
    forgetMarkdown(content);
    const h = await build(helped, { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1000000', SITE_MIN_MARKDOWN_HELPER_POSTS: '1', SITE_MIN_WRITE_THREAD_PAGES: '1' });
    expect(h.code, h.stderr).toBe(0);
    // The helper renders bodies as they are loaded; posts whose HTML is not back in time are rendered in place.
    const pages = Number(/^Built (\d+) pages/.exec(h.stdout)?.[1]);
    expect(h.stdout).toMatch(new RegExp(`rendered on 1 thread; markdown of \\d+ posts on a helper thread; ${pages} pages written on a second thread\n`));
    expectSameOutput(h, helped);
    expect(readsOf(helped)).toEqual(readsOf(one));
  });

  it('...and a write thread that falls behind leaves the pages it cannot take to this one: the same bytes and reads', async () => {
    // A slow disk on the write thread only (20 ms a page): 32 pages behind, the rest is written here.
    const slow = slowWrites();
    const mixed = path.join(tmpDir(), 'dist');
    // Without the markdown helper this time: the build then asks for its threads twice (once it knows
    // it renders everything), and must still start one write thread (a second one, never finished,
    // kept the process from exiting).
    const m = await build(mixed, { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1000000', SITE_MIN_WRITE_THREAD_PAGES: '1', SITE_WRITE_THREAD_BEHIND: '32', HOOK_SLOW_MS: '20', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${slow}` });
    expect(m.code, m.stderr).toBe(0);
    const pages = Number(/^Built (\d+) pages/.exec(m.stdout)?.[1]);
    const onThread = Number(/; (\d+) pages written on a second thread/.exec(m.stdout)?.[1]);
    expect(onThread).toBeGreaterThan(0);
    expect(onThread).toBeLessThan(pages);
    expectSameOutput(m, mixed);
    expect(readsOf(mixed)).toEqual(readsOf(one));
  }, 30_000);

  it('[R-SAFE-2] a stop signal while the write thread writes: exit 143 with its message, no stack trace, the last output kept', async () => {
    // The write thread pauses 2 ms after each page and says when it wrote its first: the signal
    // comes while it writes (the main thread, done rendering, waits for it), and the build's folder
    // is removed while pages keep coming unless the thread stops first.
    const ready = path.join(tmpDir(), 'writing');
    const slow = slowWrites();
    const out = one;
    const before = listFiles(out);
    const done = build(out, { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1000000', SITE_MIN_WRITE_THREAD_PAGES: '1', SOURCE_DATE_EPOCH: '1764000000', HOOK_SLOW_MS: '2', HOOK_READY: ready, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${slow}` });
    const started = Date.now();
    while (!existsSync(ready) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 20));
    const builds = readdirSync(path.join(path.dirname(out), '.dist.builds')).sort();
    await new Promise((r) => setTimeout(r, 50)); // some pages into it
    process.kill(Number(readFileSync(ready, 'utf8')), 'SIGTERM');
    const r = await done;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain('stopped by SIGTERM; the previous output is untouched');
    expect(r.stderr).not.toMatch(/ENOTEMPTY|Error|at /);
    expect(listFiles(out)).toEqual(before);
    // Nothing of the stopped build is left: the live build, its link and the marker, as before.
    expect(readdirSync(path.join(path.dirname(out), '.dist.builds')).sort()).toEqual(builds.filter((b) => !b.endsWith(`-${readFileSync(ready, 'utf8')}`)));
  }, 40_000);

  it('[R-SAFE-14] a post beyond the markdown limits with the helper writing pages: the render error naming the post, not a thread failure', async () => {
    const deep = copyContent(content);
    const slug = readdirSync(path.join(deep, 'blog')).sort()[0]!;
    writeFileSync(path.join(deep, 'blog', slug, 'en.md'), `${readFileSync(path.join(deep, 'blog', slug, 'en.md'), 'utf8')}\n\n${'>'.repeat(80)} deep\n`);
    const out = path.join(tmpDir(), 'dist');
    const r = await runCli(['build', '--content', deep, '--out', out], { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1000000', SITE_MIN_MARKDOWN_HELPER_POSTS: '1', SITE_MIN_WRITE_THREAD_PAGES: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`Build failed \\(render\\)[\\s\\S]*blog/${slug}/en\\.md: error \\[render\\] /blog/${slug}: markdown: block quotes or lists are nested more than`));
    expect(r.stderr).not.toContain('write thread');
  });

  let threeOut: string;
  it('writes byte-identical output on 3 threads, and says so', async () => {
    const three = (threeOut = path.join(tmpDir(), 'dist'));
    const b = await build(three, { SITE_RENDER_THREADS: '3', SITE_MIN_PARALLEL_ROUTES: '1', SITE_MIN_MARKDOWN_HELPER_POSTS: '1' });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/rendered on 3 threads \(this one and 2 page workers\)(; markdown of \d+ posts? kept from earlier builds)?\n/);
    expectSameOutput(b, three);
    // Worker-rendered posts got their own markdown body, escaped like the main thread's.
    const post = readFileSync(path.join(three, 'es/blog/note-07.html'), 'utf8');
    expect(post).toContain('<h3 id="part-7">Part 7</h3>');
    expect(post).toContain('&lt;script&gt;alert(7)&lt;/script&gt;');
    expect(post).toContain('Note 7 &lt;es&gt; &amp; co');
  });

  let incremental: string;
  it('[R-INC-1] an incremental build on 3 threads renders only the edited posts', async () => {
    // On the 3-thread build above (same options: its record vouches for it).
    const env = { SITE_RENDER_THREADS: '3', SITE_MIN_PARALLEL_ROUTES: '1', SITE_MIN_MARKDOWN_HELPER_POSTS: '1' };
    const out = threeOut;
    const note = (i: number) => path.join(content, `blog/note-${String(i).padStart(2, '0')}/es.md`);
    for (let i = 1; i <= 10; i++) writeFileSync(note(i), `${readFileSync(note(i), 'utf8')}\nEdited ${i}.\n`);
    const ten = await build(out, env);
    expect(ten.code, ten.stderr).toBe(0);
    expect(ten.stdout).toMatch(/rendered 10 of \d+ pages \(blog\/note-01\/es\.md, blog\/note-02\/es\.md, blog\/note-03\/es\.md and 7 more changed\)/);
    expect(ten.stdout).toMatch(/rendered on 3 threads/);
    incremental = out;
  });

  it('[R-INC-2] ...and its output is the same, byte for byte, as a cold build of the edited posts', async () => {
    const out = incremental;
    const cold = path.join(tmpDir(), 'dist');
    expect((await build(cold, { SITE_RENDER_THREADS: '1' })).code).toBe(0);
    expect(listFiles(out)).toEqual(listFiles(cold));
    for (const f of listFiles(cold)) expect(readFileSync(path.join(out, f)).equals(readFileSync(path.join(cold, f))), f).toBe(true);
  });

  it('[R-INC-2] an incremental build that renders many posts, with the markdown helper on, matches a cold build', async () => {
    // A text every page of the default language reads itself (the title's template; a footer text
    // would be spliced): the build renders those pages and their posts, handing the posts' bodies
    // to a helper (whose HTML is used when it is back in time).
    const out = incremental;
    edit(content, 'i18n/en.yaml', /^(\s+titleTemplate: ).*$/m, '$1"{title} | {brand}"');
    const helped = await build(out, { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1000000', SITE_MIN_MARKDOWN_HELPER_POSTS: '1' });
    expect(helped.code, helped.stderr).toBe(0);
    expect(helped.stdout).toMatch(/rendered \d+ of \d+ pages \(i18n\/en\.yaml changed\)/);
    expect(helped.stdout).toMatch(/rendered on 1 thread/);
    expect(helped.stdout).not.toMatch(/written on a second thread/); // (too few pages for the write thread)
    const cold = path.join(tmpDir(), 'dist');
    expect((await build(cold, { SITE_RENDER_THREADS: '1' })).code).toBe(0);
    expect(listFiles(out)).toEqual(listFiles(cold));
    for (const f of listFiles(cold)) expect(readFileSync(path.join(out, f)).equals(readFileSync(path.join(cold, f))), f).toBe(true);
  });

  it('a page that fails to render in any thread fails the build, names its route, and leaves the last output', async () => {
    // The last output is the first test's (a build of its own took this test over 10 s in a busy CI run).
    expect(one, 'the first test did not run').toBeDefined();
    const out = one;
    const before = listFiles(out);
    // A template that throws for every new post: whichever thread takes one reports it. (Templates
    // import from src/, so the copy sits in a project folder with src linked.)
    const project = tmpDir();
    const templates = path.join(project, 'templates');
    cpSync(path.join(ROOT, 'templates'), templates, { recursive: true });
    symlinkSync(path.join(ROOT, 'src'), path.join(project, 'src'));
    symlinkSync(path.join(ROOT, 'client'), path.join(project, 'client'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    edit(templates, 'pages/Post.tsx', 'const post = route.post!;', "const post = route.post!;\n  if (post.slug.startsWith('note-')) throw new Error(`cannot show ${post.slug}`);");
    const bad = await build(out, { SITE_RENDER_THREADS: '2', SITE_MIN_PARALLEL_ROUTES: '1' }, ['--templates', templates]);
    expect(bad.code).toBe(1);
    // 120 routes fail (60 notes x 2 languages); each message (one per note) is reported once with its count.
    expect(bad.stderr).toMatch(/Build failed \(render\): 60 problem\(s\)/);
    expect(bad.stderr).toMatch(/blog\/note-\d\d\/(en|es)\.md: error \[render\] \/(es\/)?blog\/note-\d\d: cannot show note-\d\d/);
    expect(listFiles(out)).toEqual(before);
    expect(readdirSync(path.dirname(out)).sort()).toEqual(['.dist.builds', 'dist', 'dist.host']); // dist.host: the host files beside the output
    expect(readdirSync(path.join(path.dirname(out), '.dist.builds'))).toHaveLength(3); // live build, its link and the marker: no unfinished build left behind
  });
});
