#!/usr/bin/env node
// CLI entry. React must load in production mode (development renders ~10x slower), so set
// NODE_ENV before anything imports it. The TypeScript sources are bundled with esbuild on start
// (about 50 ms) into a cache file next to node_modules, so nobody runs a manual compile step.
process.env.NODE_ENV = 'production';

import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outfile = path.join(root, 'node_modules', '.cache', 'site', 'cli.mjs');

await build({
  entryPoints: [path.join(root, 'src', 'cli.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'error',
});
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv);
