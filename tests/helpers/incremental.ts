/**
 * Incremental `site build` under test (tests/integration/incremental-hostile.test.ts,
 * unread-posts.test.ts): builds of one output folder run by the CLI's own entry in this process
 * or in a process of their own, a build paused at its carry stage, the caches a build keeps, and a
 * cold build of the same content in memory to compare with, file by file.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { expect } from 'vitest';
import { build as coldBuild } from '../../src/build.ts';
import { buildDate, resolveConfig } from '../../src/config.ts';
import { MemoryWriter } from '../../src/output/writer.ts';
import { copyContent, edit, EPOCH, listFiles, ROOT, runCli, runMain, tmpDir, type CliResult } from './site.ts';

export const CACHE = path.join(ROOT, 'node_modules', '.cache', 'site');

/**
 * A preload for the CLI: the first hard link of a page (the carry of unchanged pages) waits until the
 * file $HOOK_WAIT exists, after creating $HOOK_WAIT.ready. (The build's lock is made with a link too:
 * not that one.)
 */
const HOOK_SOURCE = `const fs = require('fs');
const orig = fs.linkSync;
let first = true;
fs.linkSync = function (...a) {
  if (first && process.env.HOOK_WAIT && !/\\.(lock|takeover)$/.test(String(a[1]))) {
    first = false;
    fs.writeFileSync(process.env.HOOK_WAIT + '.ready', String(process.pid));
    while (!fs.existsSync(process.env.HOOK_WAIT)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  return orig.apply(this, a);
};
require('module').syncBuiltinESMExports();
`;
let hook: string | undefined;
/** The preload's file, written again when gone (a test file's temporary folders go when it ends, and this module outlives it). */
function hookFile(): string {
  if (!hook || !existsSync(hook)) writeFileSync((hook = path.join(tmpDir('inc-hostile-hook-'), 'pause-at-carry.cjs')), HOOK_SOURCE);
  return hook;
}

/** `site build` run in this process (the CLI's main()): what the build does with its folder and record. */
export function build(content: string, out: string, extra: string[] = [], env: Record<string, string> = {}): Promise<CliResult> {
  return runMain(['build', '--content', content, '--out', out, ...extra], env);
}

/** `site build` in a process of its own: for a build stopped or paused from outside, and several at once. */
export function spawnBuild(content: string, out: string, extra: string[] = [], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(['build', '--content', content, '--out', out, ...extra], env);
}

export async function ok(p: Promise<CliResult>): Promise<CliResult> {
  const r = await p;
  if (r.code !== 0) throw new Error(`build failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r;
}

/** A build started with the carry hook: resolves once it is paused before hard-linking its first carried page; `go()` lets it finish. */
export async function pausedAtCarry(content: string, out: string, extra: string[] = []): Promise<{ pid: number; go(): void; done: Promise<CliResult> }> {
  const gate = path.join(tmpDir('inc-hostile-gate-'), 'go');
  const done = spawnBuild(content, out, extra, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${hookFile()}`, HOOK_WAIT: gate });
  const started = Date.now();
  while (!existsSync(`${gate}.ready`)) {
    if (Date.now() - started > 30_000) throw new Error('the build never reached the carry');
    const early = await Promise.race([done, new Promise((r) => setTimeout(r, 20, undefined))]);
    if (early) throw new Error(`the build ended before carrying anything:\n${(early as CliResult).stdout}\n${(early as CliResult).stderr}`);
  }
  return { pid: Number(readFileSync(`${gate}.ready`, 'utf8')), go: () => writeFileSync(gate, ''), done };
}

export function recordFile(out: string): string {
  return path.join(CACHE, `last-build-${createHash('sha256').update(path.resolve(out)).digest('hex').slice(0, 12)}.json`);
}

export function codeFile(out: string): string {
  // Named by the compiling part of the code key (templates, client, generator; not the options).
  const record = JSON.parse(readFileSync(recordFile(out), 'utf8')) as { compiled: string };
  return path.join(CACHE, `code-${record.compiled.slice(0, 16)}.v8`);
}

/** The entries of the posts' cache file (content/load.ts postCache writes `{ extras, entries }`). */
export function postsEntries<T>(file: string): [string, T][] {
  return (deserialize(readFileSync(file)) as { entries: [string, T][] }).entries;
}

/** Write `entries` into the posts' cache file, with the outside inputs it names. */
export function writePostsEntries(file: string, entries: unknown[]): void {
  const { extras } = deserialize(readFileSync(file)) as { extras: unknown };
  writeFileSync(file, serialize({ extras, entries }));
}

/** The posts' kept HTML of `content` (content/markdown-cache.ts), removed: the next build renders every post's markdown. */
export function forgetMarkdown(content: string): void {
  const prefix = `markdown-${createHash('sha256').update(path.resolve(content)).digest('hex').slice(0, 12)}-`;
  for (const name of readdirSync(CACHE)) if (name.startsWith(prefix)) rmSync(path.join(CACHE, name), { force: true });
}

export function postsFile(content: string): string {
  // One per content folder: a write removes the folder's caches made by other code.
  const prefix = `posts-${createHash('sha256').update(path.resolve(content)).digest('hex').slice(0, 12)}-`;
  const names = readdirSync(CACHE).filter((n) => n.startsWith(prefix) && n.endsWith('.v8'));
  expect(names).toHaveLength(1);
  return path.join(CACHE, names[0]!);
}

/** Every file of the output and of its host folder, by path (`.host/` prefixed for the latter). */
export function snapshot(out: string): Map<string, Buffer> {
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
export async function differencesFromCold(content: string, out: string, extra: string[] = []): Promise<string[]> {
  const incremental = snapshot(out);
  const value = (flag: string) => (extra.includes(flag) ? extra[extra.indexOf(flag) + 1] : undefined);
  const opts = { host: value('--host'), templates: value('--templates'), drafts: extra.includes('--drafts') };
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
 * time; `all` keeps every language and the draft one (fr), for the tests of `--drafts`;
 * `english` keeps English alone (a quarter of the pages), for tests of one language's texts.
 */
export function fresh({ all = false, english = false } = {}): { content: string; out: string } {
  const content = copyContent();
  if (!all) {
    for (const lang of english ? ['es', 'ru', 'el', 'fr'] : ['ru', 'el', 'fr']) {
      rmSync(path.join(content, 'i18n', `${lang}.yaml`), { force: true });
      for (const slug of readdirSync(path.join(content, 'blog'))) rmSync(path.join(content, 'blog', slug, `${lang}.md`), { force: true });
    }
    edit(content, 'site.yaml', /^languages: .*$/m, english ? 'languages: [en]' : 'languages: [en, es]');
    edit(content, 'site.yaml', /^draftLanguages: .*$/m, 'draftLanguages: []');
    // The WhatsApp message's language must be published.
    if (english) edit(content, 'data/cta.yaml', /^messageLanguage: .*$/m, 'messageLanguage: en');
  }
  return { content, out: path.join(path.dirname(content), 'dist') };
}


/** Templates and client copied beside a `fresh()` content folder (the build takes them from there), for a test to edit; returns the templates folder. */
export function ownTemplates(content: string): string {
  const templates = path.join(path.dirname(content), 'templates');
  cpSync(path.join(ROOT, 'templates'), templates, { recursive: true });
  cpSync(path.join(ROOT, 'client'), path.join(path.dirname(content), 'client'), { recursive: true });
  return templates;
}

/**
 * Every file and folder of `dir` one hour old, all with one time (as a checkout or a copy made
 * within one clock tick): stamped by size and time, no hash.
 */
export function age(dir: string): void {
  const then = new Date(Date.now() - 3_600_000);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) utimesSync(path.join(e.parentPath, e.name), then, then);
}

/** The incremental line of a build's summary, as numbers: pages rendered, of all, spliced (and the pieces' names), kept. */
export function summary(r: CliResult): { rendered: number; total: number; spliced: number; pieces: string; kept: number } {
  const total = Number(/Built (\d+) pages/.exec(r.stdout)?.[1]);
  if (/rendered every page/.test(r.stdout)) return { rendered: total, total, spliced: 0, pieces: '', kept: 0 };
  const m = /rendered (\d+) of (\d+) pages \([^\n]*?\)(?:; (\d+) pages given the new ([^\n]*?) without rendering them again)?; (\d+) unchanged pages taken/.exec(r.stdout);
  if (!m) throw new Error(`no incremental summary in:\n${r.stdout}`);
  return { rendered: Number(m[1]), total: Number(m[2]), spliced: Number(m[3] ?? 0), pieces: m[4] ?? '', kept: Number(m[5]) };
}
