#!/usr/bin/env node
// `npm run bench`: build the shipped site several times with the real CLI and print the median
// wall time and peak memory (RSS) of a full build (each run writes a new folder, so nothing is
// carried over), then the median of rebuilding an unchanged site into the same folder.
// Usage: npm run bench -- [runs=7] [content=content]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const runs = Number(process.argv[2] ?? 7);
const content = path.resolve(root, process.argv[3] ?? 'content');
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'site-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const times = [];
const rss = [];
const unchanged = [];
const buildOnce = (out) => {
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
  return { ms, rssMiB: timeBin ? Number(r.stderr.trim().split('\n').at(-1)) / 1024 : undefined };
};
for (let i = 0; i < runs + 1; i++) {
  const r = buildOnce(path.join(tmp, `full-${i}`));
  if (i === 0) continue; // warm-up: fills esbuild's, the image cache's and the OS's caches
  times.push(r.ms);
  if (r.rssMiB !== undefined) rss.push(r.rssMiB);
}
const same = path.join(tmp, 'same');
buildOnce(same);
for (let i = 0; i < runs; i++) unchanged.push(buildOnce(same).ms);
rmSync(tmp, { recursive: true, force: true });
const range = (xs) => `${median(xs).toFixed(0)} ms  (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
console.log(`site build of ${path.relative(root, content) || content}: ${runs} runs after a warm-up`);
console.log(`  full build, median wall time     ${range(times)}`);
if (rss.length) console.log(`  full build, median peak RSS      ${median(rss).toFixed(0)} MiB  (max ${Math.max(...rss).toFixed(0)})`);
else console.log('  peak RSS                         (install GNU time: apt-get install time)');
console.log(`  unchanged rebuild (carried over) ${range(unchanged)}`);
