#!/usr/bin/env node
// `npm run bench:tests`: run the whole suite as `npm test` does (type checks, then every vitest
// tier) and print its wall time, the ten slowest tests, the slowest files and how many builds the
// run made (CLI builds, in-memory builds, the shared build). Figures for docs/benchmarks.md.
// Usage: npm run bench:tests -- [--cold] [vitest args...]
//   --cold   remove the build caches first (node_modules/.cache/site: shared test build, images,
//            CLI bundle), as on a fresh clone after `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const cold = args.includes('--cold');
const vitestArgs = args.filter((a) => a !== '--cold');
// The report and the build log are kept (node_modules/.cache/bench-tests) for a closer look.
const tmp = path.join(root, 'node_modules', '.cache', 'bench-tests');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const report = path.join(tmp, 'report.json');
const buildLog = path.join(tmp, 'builds.jsonl');
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

if (cold) rmSync(path.join(root, 'node_modules', '.cache', 'site'), { recursive: true, force: true });
console.log(`${new Date().toISOString()} · ${os.cpus()[0]?.model ?? 'cpu'} × ${os.availableParallelism()} · load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}${cold ? ' · cold caches' : ''}`);

const started = performance.now();
const run = (cmd, argv, env = {}) => {
  const t = performance.now();
  const r = spawnSync(cmd, argv, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  return { code: r.status ?? 1, ms: performance.now() - t };
};
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
const types = [run(tsc, ['--noEmit']), run(tsc, ['--noEmit', '-p', 'client/sw.tsconfig.json'])];
const vitest = run(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', '--reporter=dot', '--reporter=./tests/setup/timing-reporter.ts', '--reporter=json', `--outputFile=${report}`, ...vitestArgs], { SITE_TEST_BUILD_LOG: buildLog });
const total = performance.now() - started;

const json = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : { testResults: [] };
const rel = (f) => path.relative(root, f);
const tests = json.testResults.flatMap((f) => f.assertionResults.map((a) => ({ ms: a.duration ?? 0, name: `${rel(f.name)} › ${a.title}` })));
const files = json.testResults.map((f) => ({ ms: f.endTime - f.startTime, name: rel(f.name) }));
const builds = existsSync(buildLog) ? readFileSync(buildLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
const byKind = (kind) => builds.filter((b) => b.kind === kind);

console.log(`\nnpm test: ${s(total)} wall (type checks ${s(types[0].ms + types[1].ms)}, vitest ${s(vitest.ms)})`);
console.log(`tests: ${json.numPassedTests ?? '?'} passed, ${json.numFailedTests ?? '?'} failed, ${json.numPendingTests ?? 0} skipped in ${json.numTotalTestSuites ?? '?'} suites`);
for (const kind of ['shared', 'cli', 'main', 'memory']) {
  const list = byKind(kind);
  const sum = list.reduce((a, b) => a + b.ms, 0);
  console.log(`builds ${kind.padEnd(6)} ${String(list.length).padStart(3)}  (${s(sum)} in all)`);
}
console.log('\nslowest tests:');
for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${s(t.ms).padStart(7)}  ${t.name.slice(0, 150)}`);
console.log('\nslowest files (collection, hooks and tests):');
const builtBy = (name) => builds.filter((b) => b.file === name && b.kind !== 'shared');
const buildsOf = (name) => {
  const list = builtBy(name);
  return list.length ? `  (${['cli', 'main', 'memory'].map((k) => [k, list.filter((b) => b.kind === k)]).filter(([, l]) => l.length).map(([k, l]) => `${l.length} ${k} ${s(l.reduce((a, b) => a + b.ms, 0))}`).join(', ')})` : '';
};
for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 25)) console.log(`  ${s(f.ms).padStart(7)}  ${f.name}${buildsOf(f.name)}`);
const tiers = new Map();
for (const f of files) tiers.set(f.name.split('/')[1], [...(tiers.get(f.name.split('/')[1]) ?? []), f]);
const byTier = [...tiers].map(([tier, list]) => `${tier} ${s(list.reduce((a, f) => a + f.ms, 0))} (${list.length} files)`);
console.log(`\nfiles' time by tier: ${byTier.join(' · ')}`);
console.log(`\nreport and build log kept in ${path.relative(root, tmp)}`);
process.exit(types.some((t) => t.code) || vitest.code ? 1 : 0);
