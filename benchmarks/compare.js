#!/usr/bin/env node
// `npm run bench:compare -- <commit> [--runs N]`: speed guard. Builds the same inputs with the
// working tree (A) and with <commit> (B, a temporary `git worktree`), each with its own bin/site.js,
// src/, templates/ and client/, and compares six cases:
//   build   cold build of a copy of the current content/ into a fresh output folder
//   posts   the same plus 1,000 generated posts (benchmarks/scale.js --generate) in the site's languages
//   text    `site build` again after a text every page of the default language shows is edited
//   post    `site build` again of the 1,000-post content after one post is edited
//   same    `site build` again of it with nothing changed
//   watch   `site watch` edit → the post page served with the new text (median of 5 edits per run)
// (The rebuild cases build into one output folder per tree, made by an untimed first build.)
// Runs alternate A, B, A, B (default 5 each) after one untimed warm-up build per tree; every run
// has SOURCE_DATE_EPOCH=1763800000. Exit 1 when a case's median of A is more than 10 % above B's
// AND the runs do not overlap (max B < min A); 2 when a tree cannot build or the benchmark fails.
// Expected duration with 5 runs: about 3-4 minutes on a 2-core machine (more if `npm ci` is needed).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, verdict as judge } from './verdict.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const startedAt = Date.now();
const EPOCH = '1763800000';
const EDITS = 5;
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt < 0 ? 5 : Number(args[runsAt + 1]);
const commit = args.filter((a, i) => !a.startsWith('--') && (runsAt < 0 || i !== runsAt + 1))[0];
if (!commit || !Number.isInteger(runs) || runs < 1 || args.some((a) => a.startsWith('--') && a !== '--runs')) {
  console.error('usage: npm run bench:compare -- <commit> [--runs N]');
  process.exit(2);
}
const git = (...a) => spawnSync('git', a, { cwd: root, encoding: 'utf8' });
const sha = git('rev-parse', '--verify', '--quiet', `${commit}^{commit}`).stdout.trim();
if (!sha) (console.error(`bench:compare: ${commit} is not a commit here`), process.exit(2));

// ------------------------------------------------------------------------- cleanup, also on Ctrl-C
const tmp = mkdtempSync(path.join(os.tmpdir(), 'site-bench-compare-'));
const children = new Set();
let worktree; // set once `git worktree add` succeeded
const leftovers = new Set(); // what a run being interrupted would leave in the trees' caches
const drop = (...paths) => paths.forEach((p) => (rmSync(p, { recursive: true, force: true }), leftovers.delete(p)));
function cleanup() {
  for (const c of children) c.kill('SIGKILL');
  for (const p of leftovers) rmSync(p, { recursive: true, force: true });
  if (worktree) {
    // node_modules first: rmSync unlinks its symlinks without following them into ours
    rmSync(path.join(worktree, 'node_modules'), { recursive: true, force: true });
    git('worktree', 'remove', '--force', worktree);
  }
  rmSync(tmp, { recursive: true, force: true });
  git('worktree', 'prune'); // also a worktree whose `add` was interrupted
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, () => {
    console.error(`\nbench:compare: ${sig}, cleaning up`);
    cleanup();
    process.exit(130);
  });
class Fail extends Error {}

// ---------------------------------------------------------------------------------------- helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Every build in a new process (no resident build process): this guards the build's own speed, and
// a base from before the resident process compares like with like (bench:scale times both ways).
const env = { ...process.env, SOURCE_DATE_EPOCH: EPOCH, SITE_RESIDENT: 'off' };
/** Runs a command; resolves with its exit code, output and wall time (spawn to exit). */
function run(cmd, argv, { cwd = root, timeoutMs, what }) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let ms;
    for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (c) => (out += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Fail(`timed out after ${timeoutMs / 1000} s: ${what}\n${out.slice(-2000)}`));
    }, timeoutMs);
    child.on('exit', () => (ms = performance.now() - t0));
    child.on('error', (err) => reject(new Fail(`${what}: ${err.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, out, ms });
    });
  });
}
/** Polls `check` (may be async) until true; the error names what it waited for. */
async function waitFor(check, what, timeoutMs) {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Fail(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(5);
  }
}
const lastBuildRecord = (t, out) => path.join(t.cache, `last-build-${createHash('sha256').update(out).digest('hex').slice(0, 12)}.json`);

// ------------------------------------------------------------------------------------------ header
const cpu = /model name\s*:\s*(.*)/.exec(existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '')?.[1] ?? os.cpus()[0]?.model ?? '?';
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim().split('\n').filter(Boolean).length;
const head = git('rev-parse', '--short', 'HEAD').stdout.trim();
console.log('bench:compare: current tree (A) vs a commit (B), same content\n');
console.log(`date        ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
console.log(`cpu         ${cpu}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; node ${process.version}`);
console.log(`load avg    ${load()} (1, 5, 15 min) at the start`);
console.log(`A           working tree at ${head}${dirty ? ` + ${dirty} changed file(s)` : ''}`);
console.log(`B           ${git('log', '-1', '--format=%h %s', sha).stdout.trim().slice(0, 100)}`);
console.log(`runs        ${runs} per case and tree, alternating A, B; watch: median of ${EDITS} edits per run`);
if (runs < 5) console.log('            (fewer than 5 runs: one noisy run can decide a verdict)');
console.log('');

const A = { name: 'A', root, what: 'the current tree' };
const B = { name: 'B', root: path.join(tmp, 'tree'), what: `commit ${sha.slice(0, 9)}` };
for (const t of [A, B]) t.cache = path.join(t.root, 'node_modules', '.cache', 'site');

try {
  // -------------------------------------------------------------------------- tree B and inputs
  const add = await run('git', ['worktree', 'add', '--detach', B.root, sha], { timeoutMs: 120_000, what: 'git worktree add' });
  if (add.code !== 0) throw new Fail(`git worktree add failed:\n${add.out}`);
  worktree = B.root;
  const lock = (t) => readFileSync(path.join(t.root, 'package-lock.json'), 'utf8');
  if (lock(A) === lock(B)) {
    // Same dependencies: link each package, but give B a real node_modules folder with its own
    // .cache. (A symlink to our whole node_modules would not do: Node loads B's bundle by its real
    // path, inside our node_modules, so B's CLI would take this tree as its project root and build
    // with our templates and client.)
    mkdirSync(path.join(B.root, 'node_modules'));
    for (const e of readdirSync(path.join(root, 'node_modules')))
      if (e !== '.cache') symlinkSync(path.join(root, 'node_modules', e), path.join(B.root, 'node_modules', e));
    console.log('B uses this tree\'s packages (package-lock.json identical), with a cache of its own');
  } else {
    console.log('package-lock.json differs: npm ci in the worktree (may take minutes)');
    const ci = await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: B.root, timeoutMs: 900_000, what: `npm ci for ${B.what}` });
    if (ci.code !== 0) throw new Fail(`npm ci in the worktree failed:\n${ci.out.slice(-3000)}`);
  }
  const content = path.join(tmp, 'content');
  cpSync(path.join(root, 'content'), content, { recursive: true });
  const siteYaml = readFileSync(path.join(content, 'site.yaml'), 'utf8');
  const langs = /^languages:\s*\[(.*)\]/m.exec(siteYaml)?.[1].split(',').map((s) => s.trim()) ?? ['en'];
  const defaultLang = /^defaultLanguage:\s*(\S+)/m.exec(siteYaml)?.[1] ?? langs[0];
  // 1,000 posts from scale.js's generator (4 languages), keeping those the site has
  const gen = path.join(tmp, 'gen');
  let made;
  for (const target of ['disk', 'tmpfs']) {
    made = await run(process.execPath, [path.join(root, 'benchmarks/scale.js'), '--posts', '1000', '--langs', '4', '--target', target, '--generate', gen], { timeoutMs: 180_000, what: 'generating 1,000 posts' });
    if (made.code === 0) break;
    rmSync(gen, { recursive: true, force: true });
  }
  if (made.code !== 0) throw new Fail(`benchmarks/scale.js --generate failed:\n${made.out}`);
  const posts = path.join(tmp, 'content-posts');
  cpSync(content, posts, { recursive: true });
  cpSync(path.join(gen, 'project/blog'), path.join(posts, 'blog'), { recursive: true, filter: (f) => !f.endsWith('.md') || langs.includes(path.basename(f, '.md')) });
  rmSync(gen, { recursive: true, force: true });
  const postLangs = langs.filter((l) => ['en', 'es', 'ru', 'el'].includes(l));

  // ------------------------------------------------------------------------------------ cases
  /** One cold build into a fresh folder; its wall time in ms. */
  async function build(t, input, label) {
    const out = path.join(mkdtempSync(path.join(tmp, 'out-')), 'dist');
    const record = lastBuildRecord(t, out); // the build's record of a folder about to be removed
    leftovers.add(record);
    const r = await run(process.execPath, [path.join(t.root, 'bin/site.js'), 'build', '--quiet', '--content', input, '--out', out], { cwd: t.root, timeoutMs: 300_000, what: `${label} build by ${t.what}` });
    drop(path.dirname(out), record);
    if (r.code !== 0 && t === A) throw new Fail(`the current tree cannot build its own content (${label}):\n${r.out.slice(0, 3000)}`);
    if (r.code !== 0) throw new Fail(`${t.what} cannot build the current content (${label}): its templates or schemas need content that content/ no longer has, or it has a bug of its own. Its output:\n${r.out.slice(0, 3000)}`);
    return r.ms;
  }

  /** One `site watch` session on a fresh copy: median ms from an edit to the page served with it. */
  async function watch(t) {
    const dir = mkdtempSync(path.join(tmp, `watch-${t.name}-`));
    cpSync(content, dir, { recursive: true });
    const slug = readdirSync(path.join(dir, 'blog')).sort()[0];
    const post = path.join(dir, 'blog', slug, `${defaultLang}.md`);
    if (!slug || !existsSync(post)) throw new Fail(`the watch case needs a post in content/blog/<slug>/${defaultLang}.md`);
    const text = readFileSync(post, 'utf8');
    const child = spawn(process.execPath, [path.join(t.root, 'bin/site.js'), 'watch', '--port', '0', '--content', dir], { cwd: t.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let exited = false;
    for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (c) => (out += c));
    child.on('exit', () => (exited = true));
    let dev;
    try {
      await waitFor(() => exited || /Serving (http:\S+)/.test(out), `${t.what}: site watch to start serving`, 90_000);
      if (exited) throw new Fail(`${t.what}: site watch exited:\n${out.slice(-3000)}`);
      const base = /Serving (http:\S+)/.exec(out)[1];
      const builtInto = /Pages are built into (.+?)\/ \(/;
      await waitFor(() => builtInto.test(out), `${t.what}: site watch to say where it builds ("Pages are built into")`, 5_000);
      dev = path.resolve(t.root, builtInto.exec(out)[1]);
      for (const p of [dev, `${dev}.host`, lastBuildRecord(t, dev)]) leftovers.add(p);
      // the post's page in the default language: the shortest .html path naming its slug
      const page = readdirSync(dev, { recursive: true }).filter((f) => f.endsWith('.html') && f.includes(slug)).sort((x, y) => x.length - y.length)[0];
      if (!page) throw new Fail(`${t.what}: no page for blog/${slug} in ${dev}`);
      const url = `${base.replace(/\/$/, '')}/${page.replace(/(index)?\.html$/, '')}`;
      const served = (mark) => fetch(url).then((r) => r.text()).then((s) => s.includes(mark), () => false);
      if (!(await served('<'))) throw new Fail(`${t.what}: ${url} is not served`);
      const times = [];
      for (let i = 0; i < EDITS; i++) {
        const mark = `Speed check edit ${i + 1} ${Math.random().toString(36).slice(2, 10)}`;
        const t0 = performance.now();
        writeFileSync(post, `${text.trimEnd()}\n\n${mark}.\n`);
        await waitFor(() => served(mark), `${t.what}: ${url} served with edit ${i + 1}`, 30_000);
        times.push(performance.now() - t0);
        await sleep(150); // past chokidar's 50 ms throttle and the watcher's 80 ms recheck
      }
      return median(times);
    } finally {
      child.kill('SIGINT');
      await waitFor(() => exited, `${t.what}: site watch to stop after Ctrl-C`, 5_000).catch(() => child.kill('SIGKILL'));
      children.delete(child);
      // its dev folder (and the host files beside it) in the tree's cache
      if (dev) drop(dev, `${dev}.host`, lastBuildRecord(t, dev));
      drop(dir);
    }
  }

  /**
   * `site build` into the tree's own output folder of `input` (made by the warm-up, not timed):
   * its wall time in ms. A rebuild case edits its input before A's run of each round, so A and B
   * each build exactly one edit since their last build of the same content.
   */
  const rebuildOut = new Map();
  async function rebuild(t, input, label) {
    const key = `${t.name}:${input}`;
    let out = rebuildOut.get(key);
    if (!out) {
      out = path.join(mkdtempSync(path.join(tmp, 'rebuild-')), 'dist');
      rebuildOut.set(key, out);
      leftovers.add(lastBuildRecord(t, out));
    }
    const r = await run(process.execPath, [path.join(t.root, 'bin/site.js'), 'build', '--quiet', '--content', input, '--out', out], { cwd: t.root, timeoutMs: 300_000, what: `${label} by ${t.what}` });
    if (r.code !== 0) throw new Fail(`${t.what} failed the ${label}:\n${r.out.slice(0, 3000)}`);
    return r.ms;
  }
  // Inputs of the rebuild cases: their own copies, edited run after run.
  const texts = path.join(tmp, 'content-texts');
  cpSync(content, texts, { recursive: true });
  const table = path.join(texts, 'i18n', `${defaultLang}.yaml`);
  const postsEdited = path.join(tmp, 'content-posts-edited');
  cpSync(posts, postsEdited, { recursive: true });
  const edited = path.join(postsEdited, 'blog', readdirSync(path.join(postsEdited, 'blog')).sort().at(-1));
  const editedPost = path.join(edited, readdirSync(edited).sort()[0]);
  let round = 0;
  const editText = () => writeFileSync(table, readFileSync(table, 'utf8').replace(/^( {2}madeWith: .*?)( \(\d+\))?$/m, `$1 (${++round})`));
  const editPost = () => writeFileSync(editedPost, `${readFileSync(editedPost, 'utf8').trimEnd()}\n\nSpeed check paragraph ${++round}.\n`);
  if (!/^ {2}madeWith: /m.test(readFileSync(table, 'utf8'))) throw new Fail(`the text rebuild case edits footer.madeWith in i18n/${defaultLang}.yaml, which it lacks`);

  const cases = [
    { id: 'build', label: 'cold build, shipped content', measure: (t) => build(t, content, 'shipped content') },
    { id: 'posts', label: `cold build, + 1,000 posts x ${postLangs.length} langs`, measure: (t) => build(t, posts, '1,000 posts') },
    { id: 'text', label: 'rebuild, shipped content, a text on every page edited', measure: (t) => (t === A && editText(), rebuild(t, texts, 'text rebuild')) },
    { id: 'post', label: `rebuild, + 1,000 posts x ${postLangs.length} langs, one post edited`, measure: (t) => (t === A && editPost(), rebuild(t, postsEdited, 'post rebuild')) },
    { id: 'same', label: `rebuild, + 1,000 posts x ${postLangs.length} langs, nothing changed`, measure: (t) => rebuild(t, postsEdited, 'unchanged rebuild') },
    { id: 'watch', label: 'watch: content edit → page served', measure: watch },
  ];

  // ------------------------------------------------------------------------- warm-up, then runs
  for (const t of [A, B]) {
    const ms = await build(t, content, 'warm-up');
    // the rebuild cases' output folders: their first builds
    await rebuild(t, texts, 'first build of the text case');
    await rebuild(t, postsEdited, 'first build of the post cases');
    console.log(`warm-up (not timed) ${t.name}: ${(ms / 1000).toFixed(1)} s, and the rebuild cases' first builds`);
  }
  // B's bin/site.js bundled B's src into B's own cache, and B's CLI (whose project root, hence
  // templates, client and image cache, is found from the bundle's real path) wrote there too
  const own = existsSync(B.cache) ? readdirSync(B.cache) : [];
  if (!own.some((f) => /^cli-/.test(f))) throw new Fail(`${B.what} did not bundle into its own cache ${B.cache}`);
  console.log(`B's own cache (in the worktree): ${own.join(', ')}\n`);

  const times = Object.fromEntries(cases.map((c) => [c.id, { A: [], B: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const c of cases)
      for (const t of [A, B]) {
        const ms = await c.measure(t);
        times[c.id][t.name].push(ms);
        console.log(`run ${i + 1}/${runs} ${c.id.padEnd(5)} ${t.name} ${ms.toFixed(0).padStart(6)} ms   (load ${os.loadavg()[0].toFixed(2)})`);
      }
  }

  // -------------------------------------------------------------------------------------- table
  let slower = false;
  const f = (x) => x.toFixed(0);
  console.log(`\n| case | median A (current) | median B (${sha.slice(0, 9)}) | A/B | min-max A (ms) | min-max B (ms) | verdict |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const c of cases) {
    const { A: a, B: b } = times[c.id];
    const { ratio, fails, verdict } = judge(a, b);
    slower ||= fails;
    console.log(`| ${c.label} | ${f(median(a))} ms | ${f(median(b))} ms | ${ratio.toFixed(2)} | ${f(Math.min(...a))}-${f(Math.max(...a))} | ${f(Math.min(...b))}-${f(Math.max(...b))} | ${verdict} |`);
  }
  console.log(`\nload avg at the end ${load()}; total ${((Date.now() - startedAt) / 60_000).toFixed(1)} min`);
  cleanup();
  process.exit(slower ? 1 : 0);
} catch (err) {
  console.error(`\nbench:compare: ${err instanceof Fail ? err.message : err.stack}`);
  cleanup();
  process.exit(2);
}
