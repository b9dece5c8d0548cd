#!/usr/bin/env node
// Cold image encoding, measured outside the build: every photo under content/images is decoded the
// way src/assets/images.ts does it (SVG rasterised at the served size, upright sRGB pixels, opaque
// alpha dropped), then every output (AVIF and WebP at each srcset width, the JPEG fallback) is
// encoded with the settings given. Each run is a fresh process (no sharp cache carried over); the
// median of the runs is printed: wall time, CPU time (user + sys of the whole process, all threads),
// how many cores the encodes kept busy, and output bytes per format, and with --jobs the CPU time
// of each format and width.
//
// Usage:
//   node benchmarks/images.js [--runs 3] [--avif-effort 4] [--webp-effort 4] [--mozjpeg 1]
//                             [--encoders 1] [--threads 1] [--order image|ljf|fifo] [--jobs]
//   node benchmarks/images.js --sweep [--runs 3]   the effort / mozjpeg table (serial: 1 encoder, 1 thread)
//   node benchmarks/images.js --parallel [--runs 3]   encoders x libvips threads x job order, at the chosen efforts
// Orders: fifo (as the sources come), ljf (longest job of any image first), image (the build's:
// largest image first, its jobs longest first, then the next image).
// Defaults are the settings of src/assets/images.ts (read from it). The numbers are only comparable
// on one machine at one load: the script prints the load average before and after.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};

/** The encoder settings src/assets/images.ts uses today (so a bare run measures the build's own). */
function currentSettings() {
  const source = readFileSync(path.join(root, 'src/assets/images.ts'), 'utf8');
  const num = (re, fallback) => Number(re.exec(source)?.[1] ?? fallback);
  return {
    quality: num(/quality:\s*(\d+)/, 85),
    avifEffort: num(/avifEffort:\s*(\d+)/, 4),
    webpEffort: num(/webpEffort:\s*(\d+)/, 4),
    mozjpeg: !/mozjpeg:\s*false/.test(source),
  };
}

// ---- one measured run (child process) ----
async function measure(s) {
  const { default: sharp } = await import('sharp');
  sharp.concurrency(s.threads);
  sharp.cache(false);
  const dir = path.join(root, 'content/images');
  const icons = new Set(['icon.svg', 'touch-icon.png']);
  const social = /socialImage:.*file:\s*([^\s}]+)/.exec(readFileSync(path.join(root, 'content/data/gallery.yaml'), 'utf8'))?.[1];
  const sources = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((rel) => /\.(?:svg|png|jpe?g|webp|avif|gif|tiff?)$/i.test(rel) && !icons.has(rel))
    .sort();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // Decode (as images.ts does), serially: it is a small part and the same for every setting.
  const decoded = [];
  for (const rel of sources) {
    const bytes = readFileSync(path.join(dir, rel));
    const meta = await sharp(bytes).metadata();
    const target =
      rel === social ? { width: 1200, height: 630 } : fit(meta.autoOrient?.width ?? meta.width, meta.autoOrient?.height ?? meta.height);
    const scale = Math.max(target.width / meta.width, target.height / meta.height, 1);
    let p = (meta.format === 'svg' ? sharp(bytes, { density: Math.min(72 * scale, 2400) }) : sharp(bytes)).rotate();
    p = rel === social ? p.resize(target.width, target.height, { fit: 'cover', position: 'attention' }) : p.resize(target.width, target.height, { fit: 'inside', withoutEnlargement: true });
    const { data, info } = await p.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const opaque = info.channels === 4 && (await sharp(data, raw).stats()).isOpaque;
    decoded.push({ rel, data, raw, opaque, width: info.width });
  }
  const decodeMs = performance.now() - t0;
  const q = s.quality;
  const jobs = [];
  for (const [seq, d] of decoded.entries()) {
    const base = () => (d.opaque ? sharp(d.data, d.raw).removeAlpha() : sharp(d.data, d.raw));
    for (const width of [480, 800, 1200, 1920].filter((w) => w < d.width * 0.9).concat(d.width)) {
      const resized = () => (width === d.width ? base() : base().resize({ width }));
      const px = width * Math.round((d.raw.raw.height * width) / d.width);
      jobs.push({ seq, format: 'avif', width, px, make: () => resized().avif({ quality: q, effort: s.avifEffort }) });
      jobs.push({ seq, format: 'webp', width, px, make: () => resized().webp({ quality: q, effort: s.webpEffort }) });
    }
    const px = d.raw.raw.width * d.raw.raw.height;
    jobs.push({ seq, format: 'jpeg', width: d.width, px, make: () => base().flatten({ background: '#ffffff' }).jpeg({ quality: q, mozjpeg: s.mozjpeg }) });
  }
  // Relative CPU per output pixel at AVIF effort 2 (COST in src/assets/images.ts; AVIF at effort 4 is ~10).
  const weight = { avif: 2, webp: 1, jpeg: 0.75 };
  const cost = (j) => j.px * weight[j.format];
  const imageCost = new Map();
  for (const j of jobs) imageCost.set(j.seq, (imageCost.get(j.seq) ?? 0) + cost(j));
  if (s.order === 'ljf') jobs.sort((a, b) => cost(b) - cost(a));
  if (s.order === 'image') jobs.sort((a, b) => imageCost.get(b.seq) - imageCost.get(a.seq) || a.seq - b.seq || cost(b) - cost(a));
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const c = process.cpuUsage();
      const t = performance.now();
      const out = await job.make().toBuffer();
      const used = process.cpuUsage(c);
      // CPU per job is exact only with one encoder (the others' threads are counted in parallel runs).
      results.push({ format: job.format, width: job.width, bytes: out.length, ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 });
    }
  };
  const cpu1 = process.cpuUsage();
  const t1 = performance.now();
  await Promise.all(Array.from({ length: s.encoders }, worker));
  const encodeMs = performance.now() - t1;
  const encodeCpu = process.cpuUsage(cpu1);
  const cpu = process.cpuUsage(cpu0);
  return { decodeMs, encodeMs, busy: (encodeCpu.user + encodeCpu.system) / 1000 / encodeMs, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, results };
}

function fit(w, h) {
  const scale = Math.min(1, 1920 / w, 1080 / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

// ---- parent: runs, medians, tables ----
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

function runSetting(s, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify(s)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(r.stderr);
    samples.push(JSON.parse(r.stdout));
  }
  const sum = (r, f) => r.results.filter((x) => !f || x.format === f).reduce((a, x) => a + x.bytes, 0);
  return {
    wall: median(samples.map((r) => r.wallMs)) / 1000,
    encode: median(samples.map((r) => r.encodeMs)) / 1000,
    cpu: median(samples.map((r) => r.cpuMs)) / 1000,
    busy: median(samples.map((r) => r.busy)),
    kb: Object.fromEntries(['avif', 'webp', 'jpeg', undefined].map((f) => [f ?? 'total', sum(samples[0], f) / 1024])),
    samples,
  };
}

const row = (label, r) =>
  `${label.padEnd(34)} ${r.wall.toFixed(2).padStart(7)} ${r.encode.toFixed(2).padStart(7)} ${r.busy.toFixed(2).padStart(6)} ${r.cpu.toFixed(2).padStart(7)}  ${['avif', 'webp', 'jpeg', 'total'].map((f) => r.kb[f].toFixed(1).padStart(8)).join(' ')}`;
// wall: the whole run; enc: the encodes only; cores: CPU time / wall time of the encodes; cpu: the whole run.
const header = `${'setting'.padEnd(34)} ${'wall s'.padStart(7)} ${'enc s'.padStart(7)} ${'cores'.padStart(6)} ${'cpu s'.padStart(7)}  ${['avif KB', 'webp KB', 'jpeg KB', 'total KB'].map((h) => h.padStart(8)).join(' ')}`;

if (flag('child')) {
  process.stdout.write(JSON.stringify(await measure(JSON.parse(args[args.indexOf('--child') + 1]))));
} else {
  const runs = Number(opt('runs', 3));
  const cur = currentSettings();
  const base = {
    ...cur,
    avifEffort: Number(opt('avif-effort', cur.avifEffort)),
    webpEffort: Number(opt('webp-effort', cur.webpEffort)),
    mozjpeg: opt('mozjpeg', cur.mozjpeg ? '1' : '0') !== '0',
    encoders: Number(opt('encoders', 1)),
    threads: Number(opt('threads', 1)),
    order: opt('order', 'image'),
  };
  console.log(`${os.cpus()[0]?.model ?? 'cpu'} x${os.availableParallelism()}, node ${process.version}, median of ${runs}; load average ${load()}`);
  console.log(header);
  const settings = [];
  if (flag('sweep')) {
    const serial = { ...base, encoders: 1, threads: 1, avifEffort: 4, webpEffort: 4, mozjpeg: true };
    settings.push(['sharp defaults (avif 4, webp 4, mozjpeg)', serial]);
    for (const e of [3, 2, 1, 0]) settings.push([`avif effort ${e}`, { ...serial, avifEffort: e }]);
    for (const e of [3, 2, 1, 0]) settings.push([`webp effort ${e}`, { ...serial, webpEffort: e }]);
    settings.push(['mozjpeg off', { ...serial, mozjpeg: false }]);
  } else if (flag('parallel')) {
    for (const [encoders, threads] of [[1, 1], [2, 1], [1, 2], [2, 2], [3, 1], [4, 1]])
      for (const order of encoders > 1 ? ['fifo', 'ljf', 'image'] : ['image']) settings.push([`${encoders} encoders x ${threads} threads, ${order}`, { ...base, encoders, threads, order }]);
  } else settings.push([`avif ${base.avifEffort}, webp ${base.webpEffort}, mozjpeg ${base.mozjpeg ? 'on' : 'off'}, ${base.encoders}x${base.threads} ${base.order}`, base]);
  for (const [label, s] of settings) {
    const r = runSetting(s, runs);
    console.log(row(label, r));
    if (flag('jobs')) {
      const by = new Map();
      for (const sample of r.samples)
        for (const j of sample.results) {
          const k = `${j.format} ${j.width}`;
          by.set(k, [...(by.get(k) ?? []), j.cpuMs]);
        }
      const perRun = [...by].map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / r.samples.length]).sort((a, b) => b[1] - a[1]);
      for (const [k, ms] of perRun) console.log(`    ${k.padEnd(12)} ${(ms / 1000).toFixed(2)} s CPU`);
    }
  }
  console.log(`load average after: ${load()}`);
}
