/**
 * [R-INC-2] Hostile cases for incremental `site build`: an incremental build (node bin/site.js
 * build into one output folder, again and again) must give the same files and bytes, in the web
 * root and in `<out>.host/`, as a cold build of the same content into an empty folder; "Nothing
 * changed" must only be said when nothing changed; a damaged cache must never break a build.
 *
 * The cold build is made in memory with the same output path and options (host files such as
 * netlify.toml name the output folder); nothing of it touches the disk or the record.
 *
 * The incremental builds run the CLI's own entry in this process (`runMain`: the same option
 * parsing, output-folder checks, "Nothing changed" shortcut, record, carry and summary as
 * `site build`); a CLI process is spawned only where the process is what is tested: a build
 * killed or paused in the middle, and builds of one output folder from several processes at once.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, utimesSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { build as coldBuild } from '../../src/build.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { MemoryWriter } from '../../src/output/writer.ts';
import { copyContent, edit, EPOCH, listFiles, ROOT, runCli, runMain, tmpDir, type CliResult } from '../helpers/site.ts';

const CACHE = path.join(ROOT, 'node_modules', '.cache', 'site');

/** A preload for the CLI: the first hard link (the carry of unchanged pages) waits until the file $HOOK_WAIT exists, after creating $HOOK_WAIT.ready. */
const HOOK = path.join(tmpDir('inc-hostile-hook-'), 'pause-at-carry.cjs');
writeFileSync(
  HOOK,
  `const fs = require('fs');
const orig = fs.linkSync;
let first = true;
fs.linkSync = function (...a) {
  if (first && process.env.HOOK_WAIT) {
    first = false;
    fs.writeFileSync(process.env.HOOK_WAIT + '.ready', String(process.pid));
    while (!fs.existsSync(process.env.HOOK_WAIT)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  return orig.apply(this, a);
};
require('module').syncBuiltinESMExports();
`,
);

/** `site build` run in this process (the CLI's main()): what the build does with its folder and record. */
function build(content: string, out: string, extra: string[] = [], env: Record<string, string> = {}): Promise<CliResult> {
  return runMain(['build', '--content', content, '--out', out, ...extra], env);
}

/** `site build` in a process of its own: for a build stopped or paused from outside, and several at once. */
function spawnBuild(content: string, out: string, extra: string[] = [], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(['build', '--content', content, '--out', out, ...extra], env);
}

async function ok(p: Promise<CliResult>): Promise<CliResult> {
  const r = await p;
  if (r.code !== 0) throw new Error(`build failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r;
}

/** A build started with the carry hook: resolves once it is paused before hard-linking its first carried page; `go()` lets it finish. */
async function pausedAtCarry(content: string, out: string, extra: string[] = []): Promise<{ pid: number; go(): void; done: Promise<CliResult> }> {
  const gate = path.join(tmpDir('inc-hostile-gate-'), 'go');
  const done = spawnBuild(content, out, extra, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${HOOK}`, HOOK_WAIT: gate });
  const started = Date.now();
  while (!existsSync(`${gate}.ready`)) {
    if (Date.now() - started > 30_000) throw new Error('the build never reached the carry');
    const early = await Promise.race([done, new Promise((r) => setTimeout(r, 20, undefined))]);
    if (early) throw new Error(`the build ended before carrying anything:\n${(early as CliResult).stdout}\n${(early as CliResult).stderr}`);
  }
  return { pid: Number(readFileSync(`${gate}.ready`, 'utf8')), go: () => writeFileSync(gate, ''), done };
}

function recordFile(out: string): string {
  return path.join(CACHE, `last-build-${createHash('sha256').update(path.resolve(out)).digest('hex').slice(0, 12)}.json`);
}

function codeFile(out: string): string {
  // Named by the compiling part of the code key (templates, client, generator; not the options).
  const record = JSON.parse(readFileSync(recordFile(out), 'utf8')) as { compiled: string };
  return path.join(CACHE, `code-${record.compiled.slice(0, 16)}.v8`);
}

function postsFile(content: string): string {
  // One per content folder: a write removes the folder's caches made by other code.
  const prefix = `posts-${createHash('sha256').update(path.resolve(content)).digest('hex').slice(0, 12)}-`;
  const names = readdirSync(CACHE).filter((n) => n.startsWith(prefix) && n.endsWith('.v8'));
  expect(names).toHaveLength(1);
  return path.join(CACHE, names[0]!);
}

/** Every file of the output and of its host folder, by path (`.host/` prefixed for the latter). */
function snapshot(out: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const f of listFiles(out)) files.set(f, readFileSync(path.join(out, f)));
  if (existsSync(`${out}.host`)) for (const f of listFiles(`${out}.host`)) files.set(`.host/${f}`, readFileSync(path.join(`${out}.host`, f)));
  return files;
}

/**
 * The incremental output in `out` against a cold build of `content` (in memory, in this process,
 * with the same output path and options: host files name the output folder): the files that
 * differ (added, missing or other bytes).
 */
async function differencesFromCold(content: string, out: string, extra: string[] = []): Promise<string[]> {
  const incremental = snapshot(out);
  const opts = { host: extra.includes('--host') ? extra[extra.indexOf('--host') + 1] : undefined, drafts: extra.includes('--drafts') };
  const config = { ...resolveConfig({ content, out, quiet: true, ...opts }), today: buildDate({ SOURCE_DATE_EPOCH: EPOCH }) };
  const writer = new MemoryWriter();
  await coldBuild(config, writer);
  const cold = new Map<string, Buffer>();
  for (const [f, c] of writer.output) cold.set(f, Buffer.from(c));
  for (const [f, c] of writer.beside) cold.set(`.host/${f}`, Buffer.from(c));
  const names = new Set([...incremental.keys(), ...cold.keys()]);
  return [...names].filter((f) => !incremental.has(f) || !cold.has(f) || !incremental.get(f)!.equals(cold.get(f)!)).sort();
}

/**
 * A copy of the shipped content in two languages (en, es: a page in another language and the texts
 * shared between languages still play), so each of this file's ~60 builds takes about half the
 * time; `all` keeps every language and the draft one (fr), for the tests of `--drafts`.
 */
function fresh({ all = false } = {}): { content: string; out: string } {
  const content = copyContent();
  if (!all) {
    for (const lang of ['ru', 'el', 'fr']) {
      rmSync(path.join(content, 'i18n', `${lang}.yaml`), { force: true });
      for (const slug of readdirSync(path.join(content, 'blog'))) rmSync(path.join(content, 'blog', slug, `${lang}.md`), { force: true });
    }
    edit(content, 'site.yaml', /^languages: .*$/m, 'languages: [en, es]');
    edit(content, 'site.yaml', /^draftLanguages: .*$/m, 'draftLanguages: []');
  }
  return { content, out: path.join(path.dirname(content), 'dist') };
}

const NOTHING = /^Nothing changed since the last build/;
const POST = 'blog/madrid-luxury-dining/en.md';

describe('[R-INC-2] incremental builds against hostile edits (same output as a cold build)', () => {
  // ---- data and options ----------------------------------------------------------------------

  it('a redirect added to and another removed from data/redirects.yaml', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    writeFileSync(path.join(content, 'data/redirects.yaml'), `${readFileSync(path.join(content, 'data/redirects.yaml'), 'utf8')}- { from: /madrid-new, to: /madrid-vip-escort }\n`);
    edit(content, 'data/redirects.yaml', /^- \{ from: \/monaco-escort.*\n/m, '');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a scheduled post (dated after the build date) appears when SOURCE_DATE_EPOCH moves past its date', async () => {
    const { content, out } = fresh();
    edit(content, POST, /^date: .*$/m, 'date: 2025-11-24');
    await ok(build(content, out));
    const later = { SOURCE_DATE_EPOCH: '1764000000' };
    const r = await ok(build(content, out, [], later));
    expect(r.stdout).toMatch(/the build date changed \(2025-11-22 → 2025-11-24\)/);
    expect(listFiles(out)).toContain('blog/madrid-luxury-dining.html');
    // The cold build with the later date.
    const incremental = snapshot(out);
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}.host`, { recursive: true, force: true });
    rmSync(path.join(path.dirname(out), '.dist.builds'), { recursive: true, force: true });
    rmSync(recordFile(out), { force: true });
    await ok(build(content, out, [], later));
    const cold = snapshot(out);
    expect([...incremental.keys()]).toEqual([...cold.keys()]);
    expect([...cold].filter(([f, b]) => !b.equals(incremental.get(f)!)).map(([f]) => f)).toEqual([]);
  });

  // One option changed a test: four builds of every language in one test took 10.7 s in a busy CI run.
  it.each([
    { option: '--host nginx', before: [], after: ['--host', 'nginx'] },
    { option: '--drafts', before: ['--host', 'nginx'], after: ['--host', 'nginx', '--drafts'] },
  ])('$option added between builds of one output folder: every page rendered, as a cold build', async ({ before, after }) => {
    const { content, out } = fresh({ all: true });
    await ok(build(content, out, before));
    expect((await ok(build(content, out, after))).stdout).toMatch(/rendered every page: the templates, client script, generator or build options changed/);
    expect(await differencesFromCold(content, out, after)).toEqual([]);
  });

  // ---- editor save patterns -------------------------------------------------------------------

  it('touch without change, and delete + recreate with the same bytes: rendered again, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = path.join(content, 'i18n/en.yaml');
    const bytes = readFileSync(file);
    rmSync(file);
    writeFileSync(file, bytes);
    const now = new Date();
    utimesSync(path.join(content, 'site.yaml'), now, now);
    const r = await ok(build(content, out));
    expect(r.stdout).toMatch(/rendered 0 of \d+ pages/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // The clock moved past the racy window (stamp in src/output/carry.ts) without waiting for it.
  const later = <T>(run: () => Promise<T>): Promise<T> => {
    const now = Date.now() + 60_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    return run().finally(() => clock.mockRestore());
  };
  const contentStamps = (out: string): string[] => Object.values((JSON.parse(readFileSync(recordFile(out), 'utf8')) as { content: Record<string, string> }).content);

  it.each([
    { when: 'right after a build', at: <T>(run: () => Promise<T>) => run() },
    { when: 'by a build after the racy window', at: later },
  ])('a same-size edit that keeps the exact modification time is still seen $when', async ({ at }) => {
    const { content, out } = fresh();
    const file = path.join(content, POST);
    // A time a Date can hold exactly (whole milliseconds): set back after the edit, the stamp's
    // nanoseconds are the same again (statSync's Date would drop the copy's sub-millisecond part).
    const when = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(file, when, when);
    await ok(build(content, out));
    const before = readFileSync(file, 'utf8');
    const after = before.replace('title: "An Evening', 'title: "An EVENING');
    expect(after.length).toBe(before.length);
    writeFileSync(file, after);
    // Same second-and-nanosecond time as the stamped one (a coarse clock tick, or a tool that keeps times).
    utimesSync(file, when, when);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(BigInt(when.getTime()) * 1_000_000n);
    const r = await at(() => ok(build(content, out)));
    expect(r.stdout).toMatch(/rendered \d+ of \d+ pages \(blog\/madrid-luxury-dining\/en\.md changed\)/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('content built right after a copy is hashed once more when no longer recent, then stamped by size and time: nothing changed either time', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    // Copied just now: every file is recent, so its stamp carries its hash.
    expect(contentStamps(out).filter((st) => st.split(':').length === 3).length).toBeGreaterThan(20);
    const pages = listFiles(out).map((f) => statSync(path.join(out, f)).ino);
    const again = await later(() => ok(build(content, out)));
    expect(again.stdout).toMatch(NOTHING);
    // Recorded without hashes now: the next builds stamp without reading a file.
    expect(contentStamps(out).filter((st) => st.split(':').length !== 2)).toEqual([]);
    expect(listFiles(out).map((f) => statSync(path.join(out, f)).ino)).toEqual(pages);
    expect((await later(() => ok(build(content, out)))).stdout).toMatch(NOTHING);
  });

  it('templates built right after a copy: the build after the racy window renders nothing, and a same-size template edit in one clock tick is still seen', async () => {
    const { content, out } = fresh();
    // The site's own templates and client beside its content (what `site init` makes), copied just now.
    for (const dir of ['templates', 'client']) cpSync(path.join(ROOT, dir), path.join(path.dirname(content), dir), { recursive: true });
    await ok(build(content, out));
    const codeStamps = (): string[] => Object.values((JSON.parse(readFileSync(recordFile(out), 'utf8')) as { codeStamps: Record<string, string> }).codeStamps);
    expect(codeStamps().length).toBeGreaterThan(20);
    // Only the stamps' hashes dropped (no longer recent): the code key is the same, and the record
    // keeps the plain stamps (later builds read none of those files again).
    expect((await later(() => ok(build(content, out)))).stdout).toMatch(NOTHING);
    expect(codeStamps()).toEqual([]);
    const file = path.join(path.dirname(content), 'templates/pages/NotFound.tsx');
    const when = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(file, when, when);
    await ok(build(content, out)); // recent again: stamped with its hash
    // The same size and time, other bytes: its last character swapped.
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, `${before.slice(0, -1)}${before.endsWith('\n') ? ' ' : '\n'}`);
    utimesSync(file, when, when);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(BigInt(when.getTime()) * 1_000_000n);
    expect(statSync(file).size).toBe(Buffer.byteLength(before));
    const r = await later(() => ok(build(content, out)));
    expect(r.stdout).toMatch(/rendered every page: the templates, client script, generator or build options changed/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a vim swap file in a post folder fails the incremental build as it fails a cold one (dotfiles are stamped)', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    writeFileSync(path.join(content, 'blog/madrid-luxury-dining/.en.md.swp'), 'b0VIM 9.0');
    const incremental = await build(content, out);
    const cold = await build(content, path.join(tmpDir(), 'dist'));
    // Both must agree: both fail (the loader reads the swap file) or both build (it is ignored).
    expect({ code: incremental.code, nothing: NOTHING.test(incremental.stdout) }).toEqual({ code: cold.code, nothing: false });
  });

  // ---- symlinks -------------------------------------------------------------------------------

  it('a post folder turned into a symlink to a folder inside the content, then the target edited', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    mkdirSync(path.join(content, 'archive'));
    renameSync(path.join(content, 'blog/madrid-luxury-dining'), path.join(content, 'archive/madrid-luxury-dining'));
    symlinkSync('../archive/madrid-luxury-dining', path.join(content, 'blog/madrid-luxury-dining'));
    await ok(build(content, out));
    edit(content, 'archive/madrid-luxury-dining/en.md', /^title: .*$/m, 'title: "Changed"');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a post folder turned into a symlink to a dot-folder inside the content (.store/): an edit of the target is seen', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    mkdirSync(path.join(content, '.store'));
    renameSync(path.join(content, 'blog/madrid-luxury-dining'), path.join(content, '.store/madrid-luxury-dining'));
    symlinkSync('../.store/madrid-luxury-dining', path.join(content, 'blog/madrid-luxury-dining'));
    await ok(build(content, out));
    edit(content, '.store/madrid-luxury-dining/en.md', /^title: .*$/m, 'title: "Changed"');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('an i18n file that is a symlink into a dot-folder of the content: an edit of the target is seen', async () => {
    const { content, out } = fresh();
    mkdirSync(path.join(content, '.i18n'));
    renameSync(path.join(content, 'i18n/es.yaml'), path.join(content, '.i18n/es.yaml'));
    symlinkSync('../.i18n/es.yaml', path.join(content, 'i18n/es.yaml'));
    await ok(build(content, out));
    edit(content, '.i18n/es.yaml', '  menu: Menú', '  menu: MENUX');
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('an i18n symlink switched to another version (ln -sfn, both targets unchanged) is seen', async () => {
    const { content, out } = fresh();
    mkdirSync(path.join(content, 'versions'));
    const es = readFileSync(path.join(content, 'i18n/es.yaml'), 'utf8');
    writeFileSync(path.join(content, 'versions/es-1.yaml'), es);
    writeFileSync(path.join(content, 'versions/es-2.yaml'), es.replace('  menu: Menú', '  menu: MENUX'));
    // Both versions of the same size and time, neither recent (so neither is hashed): only the link tells them apart.
    const old = new Date(Date.now() - 3_600_000);
    for (const v of ['es-1', 'es-2']) utimesSync(path.join(content, `versions/${v}.yaml`), old, old);
    expect(statSync(path.join(content, 'versions/es-1.yaml')).size).toBe(statSync(path.join(content, 'versions/es-2.yaml')).size);
    rmSync(path.join(content, 'i18n/es.yaml'));
    symlinkSync('../versions/es-1.yaml', path.join(content, 'i18n/es.yaml'));
    await ok(build(content, out));
    // An atomic switch: a new link renamed over the old one.
    symlinkSync('../versions/es-2.yaml', path.join(content, 'i18n/es.yaml.new'));
    renameSync(path.join(content, 'i18n/es.yaml.new'), path.join(content, 'i18n/es.yaml'));
    expect((await ok(build(content, out))).stdout).not.toMatch(NOTHING);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  // ---- the output folder ----------------------------------------------------------------------

  it.each([
    { stamps: 'on this thread', env: {} as Record<string, string> },
    // Large outputs are stamped on a second thread when the build starts (OutputStamps): made to here.
    { stamps: 'on a second thread', env: { SITE_MIN_PREFETCH_FILES: '1' } },
  ])('a page edited by hand in the live output is not kept: the output is not taken as unchanged, and the page is rendered again (output stamped $stamps)', async ({ env }) => {
    const { content, out } = fresh();
    const build = (c: string, o: string) => runMain(['build', '--content', c, '--out', o], env);
    await ok(build(content, out));
    const handEdit = () => writeFileSync(path.join(out, 'about.html'), `${readFileSync(path.join(out, 'about.html'), 'utf8')}<!-- edited by hand -->`);
    const edited = () => readFileSync(path.join(out, 'about.html'), 'utf8').includes('edited by hand');
    // Nothing else changed: the output is not taken as unchanged.
    handEdit();
    await ok(build(content, out));
    expect(edited(), 'about.html kept its hand edit (taken as unchanged)').toBe(false);
    // A post changed too: the hand-edited page is not carried into the new build.
    handEdit();
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    await ok(build(content, out));
    expect(edited(), 'about.html carried with its hand edit').toBe(false);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a build killed (SIGKILL) right after it started carrying files: the next build removes its folder, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    utimesSync(path.join(content, 'site.yaml'), new Date(), new Date());
    const paused = await pausedAtCarry(content, out);
    const builds = path.join(path.dirname(out), '.dist.builds');
    process.kill(paused.pid, 'SIGKILL');
    await paused.done;
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const r = await ok(build(content, out));
    expect(r.stdout).not.toMatch(NOTHING);
    expect(readdirSync(builds).filter((n) => n !== 'live' && n !== 'site-output.json')).toHaveLength(1);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a post edited during a build (after loading, before carrying): the next build renders the edit', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    utimesSync(path.join(content, 'site.yaml'), new Date(), new Date());
    const paused = await pausedAtCarry(content, out);
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    paused.go();
    await ok(paused.done);
    const r = await ok(build(content, out));
    expect(r.stdout).toMatch(/blog\/madrid-luxury-dining\/en\.md changed/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('three builds of the same content into one output at once: a complete output, equal to a cold build', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const results = await Promise.all([spawnBuild(content, out), spawnBuild(content, out), spawnBuild(content, out)]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('two builds of one output at once (a --drafts build publishes while the other carries): the other carries nothing of it', async () => {
    const { content, out } = fresh({ all: true });
    await ok(build(content, out));
    utimesSync(path.join(content, 'site.yaml'), new Date(), new Date());
    // Build B checked that the live build is the recorded one and is about to carry its pages…
    const b = await pausedAtCarry(content, out);
    // …when build A, a drafts preview into the same folder, publishes.
    await ok(build(content, out, ['--drafts']));
    b.go();
    await ok(b.done);
    // B is a published (non-draft) build: no page may link the draft language.
    expect(readFileSync(path.join(out, 'index.html'), 'utf8').includes('hrefLang="fr"'), 'index.html of the non-draft build links the draft language fr').toBe(false);
    // B carried nothing from the drafts build (it takes pages only from the build it recorded, which
    // A's publish removed): its output is a cold build's, and the next build rightly finds nothing changed.
    expect(await differencesFromCold(content, out)).toEqual([]);
    expect((await ok(build(content, out))).stdout).toMatch(NOTHING);
  });

  // ---- damaged caches -------------------------------------------------------------------------

  it('a truncated, then a garbage last-build record: every page rendered, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    truncateSync(recordFile(out), 200);
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page: no earlier build/);
    writeFileSync(recordFile(out), Buffer.from([0xff, 0x00, 0x13, 0x37, 0x7b]));
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page: no earlier build/);
    writeFileSync(recordFile(out), '[]');
    expect((await ok(build(content, out))).stdout).toMatch(/rendered every page/);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a last-build record of the wrong shape (a stamp that is not a string, readsPosts not a list) costs a full render, not a crash', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const good = readFileSync(recordFile(out), 'utf8');
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const failures: string[] = [];
    for (const damage of [
      (r: Record<string, unknown>) => (r.codeStamps = { 'src/cli.ts': 7 }),
      (r: Record<string, unknown>) => (r.readsPosts = 5),
    ]) {
      const record = JSON.parse(good) as Record<string, unknown>;
      damage(record);
      writeFileSync(recordFile(out), JSON.stringify(record));
      const r = await build(content, out);
      if (r.code !== 0) failures.push(r.stderr.trim().split('\n')[0]!);
    }
    // A record it cannot use costs a full render, never a failed build.
    expect(failures).toEqual([]);
  });

  it('a truncated or garbage posts-*.v8 parse cache, or one of the wrong shape: same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = postsFile(content);
    expect(existsSync(file)).toBe(true);
    truncateSync(file, 100);
    edit(content, POST, /^title: .*$/m, 'title: "Changed 1"');
    await ok(build(content, out));
    writeFileSync(file, serialize([[POST, 5], [1, 2]]));
    edit(content, POST, /^title: .*$/m, 'title: "Changed 2"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('posts-*.v8 entries whose body facts lost a field: those posts are read, so a link they hold is still checked', async () => {
    const { content, out } = fresh();
    const target = 'blog/monaco-grand-prix';
    appendFileSync(path.join(content, POST), '\nSee also [the Grand Prix](/blog/monaco-grand-prix).\n');
    await ok(build(content, out));
    // Every post unchanged since is taken from the cache unread, by its facts; here they lack `links`.
    const file = postsFile(content);
    const entries = deserialize(readFileSync(file)) as [string, { post?: Record<string, unknown> }][];
    expect(entries.find(([rel]) => rel === POST)?.[1].post).toMatchObject({ links: true });
    for (const [, e] of entries) delete e.post?.links;
    writeFileSync(file, serialize(entries));
    // The linked post goes: the post linking it must fail the build, as it fails a cold one.
    rmSync(path.join(content, target), { recursive: true });
    const r = await build(content, out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(POST);
    expect(r.stderr).toContain('link "/blog/monaco-grand-prix" is not a page of the site');
  });

  it('a truncated or garbage code-*.v8 compiled-code cache: compiled again, same output', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = codeFile(out);
    // Written in the background after the templates compile: wait for it.
    for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(file), `the build kept no compiled code at ${file}`).toBe(true);
    truncateSync(file, 1000);
    edit(content, POST, /^title: .*$/m, 'title: "Changed 1"');
    await ok(build(content, out));
    writeFileSync(file, Buffer.from('garbage'.repeat(100)));
    edit(content, POST, /^title: .*$/m, 'title: "Changed 2"');
    await ok(build(content, out));
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('a code-*.v8 of the wrong shape (valid V8 data, no model) is compiled again, not a false schema error', async () => {
    const { content, out } = fresh();
    await ok(build(content, out));
    const file = codeFile(out);
    for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(file), `the build kept no compiled code at ${file}`).toBe(true);
    writeFileSync(file, serialize({}));
    edit(content, POST, /^title: .*$/m, 'title: "Changed"');
    const r = await build(content, out);
    expect({ code: r.code, said: (r.stderr + r.stdout).split('\n').find((l) => l.includes('error')) }).toEqual({ code: 0, said: undefined });
  });
});
