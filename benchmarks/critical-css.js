#!/usr/bin/env node
// `npm run bench:css`: is the stylesheet worth inlining? Loads the home page of the built site in
// Chromium on an emulated mid-range phone on a slow 4G link, once as built (external stylesheet)
// and once with the stylesheet inlined into the page, and prints the median first and largest
// contentful paint of each. Needs dist/ (npm run build) and Chromium.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const runs = Number(process.argv[2] ?? 7);
const cache = path.join(root, 'node_modules', '.cache', 'site');
const serverFile = path.join(cache, 'bench-static-server.mjs');
await build({ entryPoints: [path.join(root, 'src/server/static.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: serverFile, logLevel: 'error' });
const { startStaticServer } = await import(serverFile);

// The build inlines the stylesheet; the other variant is a copy of dist/ whose home page links
// it as a file instead.
const external = path.join(mkdtempSync(path.join(os.tmpdir(), 'site-css-')), 'dist');
cpSync(dist, external, { recursive: true });
const home = readFileSync(path.join(dist, 'index.html'), 'utf8');
const css = /<style>([\s\S]*?)<\/style>/.exec(home)?.[1];
if (!css) throw new Error('dist/index.html has no inline <style>: build with `npm run build` first');
writeFileSync(path.join(external, 'assets', 'site.css'), css);
writeFileSync(path.join(external, 'index.html'), home.replace(`<style>${css}</style>`, '<link rel="stylesheet" href="/assets/site.css"/>'));

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
async function measure(base) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // Lighthouse's "slow 4G" and a 4x slower CPU.
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${base}/`, { waitUntil: 'load' });
  await page.waitForTimeout(300);
  const m = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    return new Promise((resolve) => {
      new PerformanceObserver((list) => {
        const entries = list.getEntries();
        resolve({ fcp, lcp: entries.at(-1).startTime });
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
  });
  await context.close();
  return m;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
for (const [name, dir] of [['stylesheet inlined (as built)', dist], ['external stylesheet', external]]) {
  const { server, url } = await startStaticServer({ root: dir });
  const ms = [];
  for (let i = 0; i < runs; i++) ms.push(await measure(url));
  server.close();
  results[name] = { fcp: median(ms.map((m) => m.fcp)), lcp: median(ms.map((m) => m.lcp)) };
}
await browser.close();
const { gzipSync } = await import('node:zlib');
console.log(`home page, slow 4G + 4x CPU, median of ${runs}; stylesheet ${(css.length / 1024).toFixed(1)} KB (${(gzipSync(css).length / 1024).toFixed(1)} KB gzipped)`);
for (const [name, r] of Object.entries(results)) console.log(`  ${name.padEnd(32)} FCP ${r.fcp.toFixed(0)} ms  LCP ${r.lcp.toFixed(0)} ms`);
