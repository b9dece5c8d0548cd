#!/usr/bin/env node
// `npm run bench`: build the shipped site several times with the real CLI and print the median
// wall time and peak memory (RSS). Usage: npm run bench -- [runs=7] [content=content]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const runs = Number(process.argv[2] ?? 7);
const content = path.resolve(root, process.argv[3] ?? 'content');
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'site-bench-')), 'dist');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const times = [];
const rss = [];
for (let i = 0; i < runs + 1; i++) {
  const args = [path.join(root, 'bin/site.js'), 'build', '--quiet', '--content', content, '--out', out];
  const started = process.hrtime.bigint();
  const r = timeBin
    ? spawnSync(timeBin, ['-f', '%M', process.execPath, ...args], { encoding: 'utf8' })
    : spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
  if (i === 0) continue; // warm-up: fills esbuild's and the OS's caches
  times.push(ms);
  if (timeBin) rss.push(Number(r.stderr.trim().split('\n').at(-1)) / 1024);
}
rmSync(path.dirname(out), { recursive: true, force: true });
console.log(`site build of ${path.relative(root, content) || content}: ${runs} runs after a warm-up`);
console.log(`  median wall time  ${median(times).toFixed(0)} ms  (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`);
if (rss.length) console.log(`  median peak RSS   ${median(rss).toFixed(0)} MiB  (max ${Math.max(...rss).toFixed(0)})`);
else console.log('  peak RSS          (install GNU time: apt-get install time)');
