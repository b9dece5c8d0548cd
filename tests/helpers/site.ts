/**
 * Fixture sites: copy content, change it, then build it in memory (renderSite, tests/helpers/render.ts)
 * or, for tests of the CLI itself, with the real CLI (buildSite); read the output with read/htmlFiles.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { countBuild } from './build-log.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The content the tests of the shipped site read and build: SITE_CONTENT when set (an operator's own
 * content folder: `SITE_CONTENT=../my-content npm test`), else the project's content/. Those tests
 * compute their expectations from this folder's YAML (tests/helpers/content.ts), never from literals.
 */
export const SHIPPED_CONTENT = process.env.SITE_CONTENT ? path.resolve(process.env.SITE_CONTENT) : path.join(ROOT, 'content');
/**
 * The sample site in the repository: generator-behaviour tests copy it and edit known lines of it
 * (a fixture), so they mean the same thing whichever content SITE_CONTENT names.
 */
export const FIXTURE_CONTENT = path.join(ROOT, 'content');
/** 2025-11-22: fixed so every test run sees the same "today". */
export const EPOCH = '1763800000';

/** Folders made by tmpDir in this test file, removed after it (tests/setup/tmp-dirs.ts). */
const made: string[] = [];

/** A fresh folder under the system's temporary folder, removed after the test file that made it. */
export function tmpDir(prefix = 'site-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Remove the folders tmpDir made (without this a run of the suite left ~270 folders and ~350 MB
 * in the temporary folder). Never fails a test: a folder a killed process still writes into stays.
 */
export function removeTmpDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // left for the system's temporary-folder cleaning
    }
  }
}

/** A copy of the fixture (default) or of `from` (SHIPPED_CONTENT for the shipped site) that a test may change freely. */
export function copyContent(from = FIXTURE_CONTENT): string {
  const dir = path.join(tmpDir(), 'content');
  cpSync(from, dir, { recursive: true });
  return dir;
}

/** Replace text in a content file; fails loudly when the text is not there (a stale test). */
export function edit(contentDir: string, file: string, from: string | RegExp, to: string): void {
  const p = path.join(contentDir, file);
  const before = readFileSync(p, 'utf8');
  const after = before.replace(from, to);
  if (after === before) throw new Error(`edit: ${String(from)} not found in ${file}`);
  writeFileSync(p, after);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}


/**
 * `site serve <args>` in a process of its own: resolves with the address it prints once it listens,
 * and `stop` (SIGTERM, waited for: no server outlives its test).
 */
export async function serveCli(args: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'site.js'), 'serve', ...args], { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH } });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = / at (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    return { url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
/** Run `node bin/site.js ...args` with a fixed build date (a `build` is counted for `npm run bench:tests`). */
export function runCli(args: string[], env: Record<string, string> = {}, kind: 'cli' | 'shared' = 'cli'): Promise<CliResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin', 'site.js'), ...args],
      { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, ...env }, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        if (args[0] === 'build') countBuild(kind, args.includes('--content') ? args[args.indexOf('--content') + 1]! : 'content', performance.now() - started);
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Run the CLI's own entry (`main` of src/cli.ts: option parsing, the output-folder checks, the
 * "Nothing changed" shortcut, the build, the summary and the exit code) in this process, with what
 * it prints captured: for tests of what a command does with its input, not of the process itself
 * (exit on a signal, a killed process, several processes at once: those spawn it with runCli).
 * No process start, no bundle load, no React start-up per call: about a third of a spawned build.
 * `env` is set for the call (SOURCE_DATE_EPOCH is EPOCH unless it says otherwise). Calls must not
 * overlap (console and process.env are this process's): await each before the next.
 */
export async function runMain(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const { main } = await import('../../src/cli.ts');
  const started = performance.now();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const vars = { SOURCE_DATE_EPOCH: EPOCH, FORCE_COLOR: '0', ...env };
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const { log, error, warn } = console;
  const line = (to: string[]) => (...a: unknown[]) => void to.push(`${a.map(String).join(' ')}\n`);
  Object.assign(process.env, vars);
  Object.assign(console, { log: line(stdout), error: line(stderr), warn: line(stderr) });
  try {
    const code = await main([process.execPath, path.join(ROOT, 'bin', 'site.js'), ...args]);
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    Object.assign(console, { log, error, warn });
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    if (args[0] === 'build') countBuild('main', args.includes('--content') ? args[args.indexOf('--content') + 1]! : 'content', performance.now() - started);
  }
}

/** Build `contentDir` with the real CLI into a fresh folder (tests of the CLI itself; others use renderSite); throws with the CLI output when the build fails. */
export async function buildSite(contentDir: string, extra: string[] = []): Promise<{ out: string; result: CliResult }> {
  const out = path.join(tmpDir('site-out-'), 'dist');
  const result = await runCli(['build', '--content', contentDir, '--out', out, ...extra]);
  if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return { out, result };
}

/** The files of a build made in memory (renderSite): output path → content. */
export interface MemoryOutput {
  readonly memory: ReadonlyMap<string, string | Uint8Array>;
  /** The host's files that go beside the web root (`<out>.host/`). */
  readonly beside?: ReadonlyMap<string, string | Uint8Array>;
  /** The output folder the build was configured for (host files such as nginx.conf name it); nothing is there until `materialize`. */
  readonly dir?: string;
}

/** Write a build held in memory to its output folder and its host files to `<folder>.host/`, for a server or engine to serve; returns the folder. */
export function materialize(out: MemoryOutput, dir = out.dir ?? path.join(tmpDir('site-out-'), 'dist')): string {
  for (const [root, files] of [[dir, out.memory], [`${dir}.host`, out.beside ?? new Map()]] as const)
    for (const [file, content] of files) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), content);
    }
  return dir;
}

/** A build's output: a folder on disk or a build held in memory. */
export type Out = string | MemoryOutput;

/** Every file under `dir`, relative, sorted, forward slashes. */
export function listFiles(dir: Out, prefix = ''): string[] {
  if (typeof dir !== 'string') return [...dir.memory.keys()].sort();
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) out.push(...listFiles(full, rel));
    else out.push(rel);
  }
  return out;
}

/** A text file of a build (on disk or in memory); throws when the build has no such file. */
export function read(out: Out, file: string): string {
  if (typeof out === 'string') return readFileSync(path.join(out, file), 'utf8');
  const content = out.memory.get(file);
  if (content === undefined) throw new Error(`ENOENT: the build has no ${file}`);
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}

/** The bytes of a file of a build (on disk or in memory). */
export function bytes(out: Out, file: string): Buffer {
  if (typeof out === 'string') return readFileSync(path.join(out, file));
  const content = out.memory.get(file);
  if (content === undefined) throw new Error(`ENOENT: the build has no ${file}`);
  return Buffer.from(content);
}

/** Whether a build has `file`. */
export function has(out: Out, file: string): boolean {
  return typeof out === 'string' ? existsSync(path.join(out, file)) : out.memory.has(file);
}

/** The HTML pages of a build (no assets). */
export function htmlFiles(out: Out): string[] {
  return listFiles(out).filter((f) => f.endsWith('.html'));
}

/**
 * Publish `lang` in a content copy: moved from site.yaml `draftLanguages` (if there) to `languages`
 * (through the YAML document, so any way the operator wrote the lists works). Returns the languages.
 */
export function publishLanguage(contentDir: string, lang: string): string[] {
  const file = path.join(contentDir, 'site.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const languages = (doc.get('languages', true) as { toJSON(): string[] }).toJSON();
  if (!languages.includes(lang)) doc.set('languages', [...languages, lang]);
  const drafts = (doc.get('draftLanguages', true) as { toJSON(): string[] } | undefined)?.toJSON() ?? [];
  if (drafts.includes(lang)) doc.set('draftLanguages', drafts.filter((l) => l !== lang));
  writeFileSync(file, doc.toString());
  return languages.includes(lang) ? languages : [...languages, lang];
}

/**
 * A copy of the starter site (starter/: content and its own templates beside it, 6 pages) in a temp
 * folder, with one redirect; returns its content folder. For tests of the CLI's publishing, where
 * what matters is a whole build and not the shipped site's 140 pages (a build is ~0.3 s, not ~3 s).
 */
export function copyStarter(): string {
  const dir = path.join(tmpDir('site-starter-'), 'site');
  cpSync(path.join(ROOT, 'starter'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'content', 'data', 'redirects.yaml'), '- { from: /old-page, to: / }\n');
  // Netlify, as the shipped site: its _headers and _redirects are part of a complete output.
  writeFileSync(path.join(dir, 'content', 'site.yaml'), `${readFileSync(path.join(dir, 'content', 'site.yaml'), 'utf8')}deploy: { host: netlify }\n`);
  return path.join(dir, 'content');
}
