#!/usr/bin/env node
// CLI entry. React must load in production mode (development renders ~10x slower), so set
// NODE_ENV before anything imports it. The TypeScript sources are bundled with esbuild (with their
// pure-JS dependencies: a few files load faster than hundreds) into a cache folder named after the
// sources' paths, sizes and modification times, so an unchanged tree starts without bundling,
// nobody runs a manual compile step, and parallel runs never read a half-written bundle. The
// bundle is split where the CLI imports a command's code on demand: `site --version`, or a build
// with nothing changed, compiles ~0.45 MB of it instead of 1.8 MB (~47 ms to import it whole).
process.env.NODE_ENV = 'production';
// Output piped into a command that stops reading (`site build --help | head`) is not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cache = path.join(root, 'node_modules', '.cache', 'site');
const src = path.join(root, 'src');

const key = createHash('sha256');
for (const rel of readdirSync(src, { recursive: true }).sort()) {
  const st = statSync(path.join(src, rel));
  key.update(`${rel}:${st.size}:${st.mtimeMs}\n`);
}
for (const f of ['bin/site.js', 'package-lock.json']) {
  const st = statSync(path.join(root, f), { throwIfNoEntry: false });
  key.update(`${f}:${st?.size}:${st?.mtimeMs}\n`);
}
const dir = path.join(cache, `cli-${key.digest('hex').slice(0, 16)}`);
const file = path.join(dir, 'cli.mjs');

if (!existsSync(file)) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { cli: path.join(src, 'cli.ts') },
    bundle: true,
    splitting: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    // Native packages stay external; React too, so templates and renderer share one instance.
    external: ['esbuild', 'sharp', 'chokidar', 'react', 'react/*', 'react-dom', 'react-dom/*', 'playwright-core'],
    banner: { js: "import { createRequire as __siteRequire } from 'node:module'; const require = __siteRequire(import.meta.url);" },
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
const { main } = await import(pathToFileURL(file).href);
process.exitCode = await main(process.argv);
