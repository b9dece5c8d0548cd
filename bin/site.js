#!/usr/bin/env node
// CLI entry. React must load in production mode (development renders ~10x slower), so set
// NODE_ENV before anything imports it. The TypeScript sources are bundled with esbuild on start
// (a few tens of ms) into a cache file named by its content hash, so nobody runs a manual compile
// step and parallel runs never read a half-written bundle.
process.env.NODE_ENV = 'production';

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cache = path.join(root, 'node_modules', '.cache', 'site');

const result = await build({
  entryPoints: [path.join(root, 'src', 'cli.ts')],
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'error',
  // Keep the bundle inside the project so bare imports resolve from node_modules.
  outfile: path.join(cache, 'cli.mjs'),
});
const code = result.outputFiles[0].contents;
const file = path.join(cache, `cli-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`);
if (!existsSync(file)) {
  mkdirSync(cache, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, code);
  renameSync(tmp, file);
}
const { main } = await import(pathToFileURL(file).href);
process.exitCode = await main(process.argv);
