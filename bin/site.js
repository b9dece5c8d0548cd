#!/usr/bin/env node
// CLI entry. React must load in production mode (development renders ~10x slower), so set
// NODE_ENV before anything imports it. The TypeScript sources are bundled with esbuild (with their
// pure-JS dependencies: a few files load faster than hundreds) into a cache folder named after the
// sources' paths, sizes and modification times, so an unchanged tree starts without bundling,
// nobody runs a manual compile step, and parallel runs never read a half-written bundle.
// The bundle is one CommonJS file run with V8's code cache (Node 20 has no module compile cache):
// parsing and compiling its functions again cost every command 50-60 ms of a one-post rebuild's
// ~600. Each command keeps its own cache, written after its first run, so it holds the functions
// that command ran; V8 refuses a cache that does not match the file or the engine, and a new one
// is written then. This file is also the entry of the CLI's worker threads.
process.env.NODE_ENV = 'production';
// Output piped into a command that stops reading (`site build --help | head`) is not an error.
if (isMainThread) {
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { isMainThread, threadId } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cache = path.join(root, 'node_modules', '.cache', 'site');
const src = path.join(root, 'src');

/** The bundle folder of the sources as they are now. */
function currentBundle() {
  const key = createHash('sha256');
  for (const rel of readdirSync(src, { recursive: true }).sort()) {
    const st = statSync(path.join(src, rel));
    key.update(`${rel}:${st.size}:${st.mtimeMs}\n`);
  }
  for (const f of ['bin/site.js', 'package-lock.json']) {
    const st = statSync(path.join(root, f), { throwIfNoEntry: false });
    key.update(`${f}:${st?.size}:${st?.mtimeMs}\n`);
  }
  return path.join(cache, `cli-${key.digest('hex').slice(0, 16)}`);
}
// A worker thread runs the bundle its process runs, even if the sources changed since it started
// (a watch session replaces its render worker now and then).
// The resident build process (bin/resident.js: `--resident <socket> <bundle>`) runs the bundle its client ran.
const residentAt = isMainThread && process.argv[2] === '--resident' && process.argv[3] ? path.resolve(process.argv[3]) : undefined;
const inherited = isMainThread ? residentAt && process.argv[4] : process.env.SITE_CLI_BUNDLE;
const dir = inherited && existsSync(path.join(inherited, 'cli.cjs')) ? inherited : currentBundle();
if (isMainThread) process.env.SITE_CLI_BUNDLE = dir;
const file = path.join(dir, 'cli.cjs');

// `site build` is sent to the resident build process when one answers; else it runs here, and
// starts one for the next build (bin/resident.js).
let served;
let startAfter;
// (Not even loaded when turned off or in CI: a build in its own process pays nothing for it.)
if (isMainThread && process.argv[2] === 'build' && (await import('./resident-wanted.js')).residentWanted()) {
  const resident = await import('./resident.js');
  const socket = resident.residentSocket(dir);
  if (socket) {
    // (A bundle not made yet has no process: this build makes it, then starts one.)
    const answer = existsSync(file) ? await resident.viaResident(socket) : { start: true };
    if (typeof answer === 'number') served = answer;
    // (Unless the one it reached left saying the site's builds are better in their own processes.)
    else if (answer.start) startAfter = () => resident.residentSocket(dir) && resident.startResident(socket, fileURLToPath(import.meta.url), dir);
  }
}

if (served === undefined && !existsSync(file)) {
  const { build } = await import('esbuild');
  const result = await build({
    // (The file thread's entry apart: it loads in milliseconds, the CLI in ~130 ms of CPU.)
    entryPoints: { cli: path.join(src, 'cli.ts'), 'io-worker': path.join(src, 'output', 'io-worker.ts') },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    // Native packages stay external; React too, so templates and renderer share one instance; and
    // jsonc-parser, whose main file is a UMD module that requires its parts at run time.
    external: ['esbuild', 'sharp', 'chokidar', 'jsonc-parser', 'react', 'react/*', 'react-dom', 'react-dom/*', 'playwright-core'],
    // A command's code is imported on demand: as require() of a module initialised on first use
    // (a vm script has no dynamic import()), so `site --version` runs none of the build's modules.
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__siteFileUrl' },
    banner: { js: "const __siteFileUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'error',
  });
  // Written into a folder of its own, then renamed into place whole.
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const out of result.outputFiles) writeFileSync(path.join(tmp, path.relative(dir, out.path)), out.contents);
  try {
    renameSync(tmp, dir);
  } catch {
    // another run put the same bundle in place first
    rmSync(tmp, { recursive: true, force: true });
  }
  // Bundles of older sources: remove those not used for an hour (a parallel run may still need one).
  for (const old of readdirSync(cache)) {
    const p = path.join(cache, old);
    if (/^(cli|templates)-/.test(old) && p !== dir && Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { recursive: true, force: true });
  }
}
if (served !== undefined) process.exitCode = served;
else await runHere();

/** Load the CLI bundle and run the command in this process (or this worker). */
async function runHere() {
  // A cache per command (src/cli.ts); the rest (--version, --help, a typo) share one.
  const COMMANDS = ['build', 'watch', 'serve', 'check', 'new', 'init', 'schemas'];
  const name = isMainThread ? (residentAt ? 'resident' : COMMANDS.includes(process.argv[2]) ? process.argv[2] : 'other') : 'worker';
  const codeCache = path.join(dir, `cli.${name}.v8`);
  let cachedData;
  try {
    cachedData = readFileSync(codeCache);
  } catch {
    // first run of this command: compiled from the source, its cache written afterwards
  }
  // Read as latin1: esbuild writes ASCII (it escapes other characters in strings and names; only
  // comments keep theirs), and latin1 skips UTF-8 decoding (0.2 ms instead of 4.5 for 1.8 MB).
  const source = readFileSync(file, 'latin1');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const cli = { exports: {} };
  const ioEntry = pathToFileURL(path.join(dir, 'io-worker.cjs'));
  script.runInThisContext()(cli.exports, createRequire(file), cli, file, dir);
  const keep = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      // Named by thread too: a build's page workers start together, in one process.
      const tmp = `${codeCache}.${process.pid}-${threadId}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, codeCache);
    } catch {
      // compiled from the source again next time
    }
  };
  if (residentAt) {
    // Its code cache is written once it has served a build: it then holds what a build runs.
    await cli.exports.resident(residentAt, { workerEntry: new URL(import.meta.url), ioEntry, resident: { idleMs: (await import('./resident.js')).idleMs() }, served: keep });
  } else if (isMainThread) {
    process.exitCode = await cli.exports.main(process.argv, { workerEntry: new URL(import.meta.url), ioEntry });
    keep();
    startAfter?.();
  } else keep(); // a worker: what its module's start compiled (its work goes on after this file)
}
