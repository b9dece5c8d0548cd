#!/usr/bin/env node
// `npm run bench:watch`: edit-to-reload latency of `site watch` (median of 20 content edits and of
// 20 template edits, coalescing window included) and its memory after 500 edits, on a temporary
// copy of the shipped site. Usage: npm run bench:watch -- [edits=500]
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const totalEdits = Number(process.argv[2] ?? 500);
const dir = mkdtempSync(path.join(os.tmpdir(), 'site-bench-watch-'));
for (const d of ['templates', 'client', 'content']) cpSync(path.join(root, d), path.join(dir, d), { recursive: true });
symlinkSync(path.join(root, 'src'), path.join(dir, 'src'));
symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));

const child = spawn(process.execPath, [path.join(root, 'bin/site.js'), 'watch', '--port', '0', '--content', 'content', '--templates', 'templates', '--client', 'client'], {
  cwd: dir,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
child.stdout.on('data', (c) => (out += c));
const wait = async (check, what, ms = 30_000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out: ${what}\n${out}`);
    await new Promise((r) => setTimeout(r, 2));
  }
};
await wait(() => /Serving (http:\S+)/.test(out), 'server');
const base = /Serving (http:\S+)/.exec(out)[1];
let reloads = 0;
await new Promise((resolve) =>
  http.get(`${base}/__site/events`, (res) => {
    res.setEncoding('utf8');
    res.on('data', (c) => (reloads += c.split('event: reload').length - 1));
    resolve();
  }),
);
const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The 95th percentile (nearest rank). */
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1];

const post = path.join(dir, 'content/blog/monaco-grand-prix/en.md');
const template = path.join(dir, 'templates/pages/NotFound.tsx');
const postText = readFileSync(post, 'utf8');
const templateText = readFileSync(template, 'utf8');
let n = 0;
/** One edit; resolves with the milliseconds until the reload event arrived. */
async function edit(kind) {
  n++;
  const before = reloads;
  const started = performance.now();
  if (kind === 'content') writeFileSync(post, postText.replace(/^title: .*$/m, `title: "Edit ${n}"`));
  else writeFileSync(template, templateText.replace('<main id="main" tabIndex={-1}>', `<main id="main" tabIndex={-1} data-edit="${n}">`));
  await wait(() => reloads > before, `reload after edit ${n}`);
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 60)); // past chokidar's per-file throttle
  return ms;
}

const rssStart = rssMiB();
const content = [];
const templates = [];
for (let i = 0; i < 20; i++) content.push(await edit('content'));
for (let i = 0; i < 20; i++) templates.push(await edit('template'));
const samples = [];
for (let i = 40; i < totalEdits; i++) {
  await edit(i % 2 ? 'content' : 'template');
  if ((i + 1) % 100 === 0) samples.push(`${i + 1}: ${rssMiB().toFixed(0)}`);
}
global.gc?.();
await new Promise((r) => setTimeout(r, 500));
const rssEnd = rssMiB();
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));
rmSync(dir, { recursive: true, force: true });

console.log(`site watch on the shipped site (${totalEdits} edits)`);
console.log(`  content edit → reload   median ${median(content).toFixed(0)} ms, p95 ${p95(content).toFixed(0)} (min ${Math.min(...content).toFixed(0)}, max ${Math.max(...content).toFixed(0)}; target median 50 ms, p95 100 ms)`);
console.log(`  template edit → reload  median ${median(templates).toFixed(0)} ms, p95 ${p95(templates).toFixed(0)} (min ${Math.min(...templates).toFixed(0)}, max ${Math.max(...templates).toFixed(0)}; target 300 ms)`);
console.log(`  memory (RSS)            ${rssStart.toFixed(0)} MiB after start, ${rssEnd.toFixed(0)} MiB after ${totalEdits} edits`);
console.log(`  RSS by edits (MiB)      ${samples.join(', ')}`);
console.log(`  render workers replaced ${(out.match(/render worker replaced/g) ?? []).length}`);
