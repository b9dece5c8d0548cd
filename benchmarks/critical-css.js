#!/usr/bin/env node
// `npm run bench:css`: is the stylesheet worth inlining? Loads the home page of the built site in
// Chromium on an emulated mid-range phone on a slow 4G link: as built (the first screen's rules
// inlined, the whole stylesheet linked after that screen), with the whole stylesheet inlined (as
// the other pages have it), and with the whole stylesheet as an external file in the head; prints
// the median first and largest contentful paint of each. Needs dist/ (npm run build) and Chromium.
// Usage: npm run bench:css [-- runs] [page]   (page: a home page path, default / ; e.g. /el; DIST=<dir> for another build)
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = process.env.DIST ? path.resolve(process.env.DIST) : path.join(root, 'dist');
const runs = Number(process.argv[2] ?? 7);
const homePath = process.argv[3] ?? '/';
const homeFile = homePath === '/' ? 'index.html' : `${homePath.slice(1)}.html`;
const cache = path.join(root, 'node_modules', '.cache', 'site');
const serverFile = path.join(cache, 'bench-static-server.mjs');
await build({ entryPoints: [path.join(root, 'src/server/static.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: serverFile, logLevel: 'error' });
const { startStaticServer } = await import(serverFile);

// The other variants are copies of dist/ whose home page inlines the whole stylesheet, or links it
// from the head instead.
const copy = (name) => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), `site-css-${name}-`)), 'dist');
  cpSync(dist, dir, { recursive: true, dereference: true });
  return dir;
};
const home = readFileSync(path.join(dist, homeFile), 'utf8');
const inline = /<style>([\s\S]*?)<\/style>/.exec(home)?.[1];
if (!inline) throw new Error(`dist/${homeFile} has no inline <style>: build with \`npm run build\` first`);
const rest = /<link rel="stylesheet" href="([^"]+)"[^>]*\/>/.exec(home.slice(home.indexOf('<body')));
const css = rest ? readFileSync(path.join(dist, rest[1].replace(/^\//, '')), 'utf8') : inline;
const bare = rest ? home.replace(rest[0], '') : home;
const wholeInline = copy('inline');
writeFileSync(path.join(wholeInline, homeFile), bare.replace(`<style>${inline}</style>`, `<style>${css}</style>`));
const external = copy('external');
writeFileSync(path.join(external, 'assets', 'site.css'), css);
writeFileSync(path.join(external, homeFile), bare.replace(`<style>${inline}</style>`, '<link rel="stylesheet" href="/assets/site.css"/>'));

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
async function measure(base) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // Lighthouse's "slow 4G" and a 4x slower CPU.
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${base}${homePath}`, { waitUntil: 'load' });
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
const variants = [
  ...(rest ? [['first screen inlined, rest linked (as built)', dist]] : []),
  [rest ? 'whole stylesheet inlined' : 'stylesheet inlined (as built)', rest ? wholeInline : dist],
  ['external stylesheet', external],
];
for (const [name, dir] of variants) {
  const { server, url } = await startStaticServer({ root: dir });
  const ms = [];
  for (let i = 0; i < runs; i++) ms.push(await measure(url));
  server.close();
  results[name] = { fcp: median(ms.map((m) => m.fcp)), lcp: median(ms.map((m) => m.lcp)) };
}
await browser.close();
const { gzipSync } = await import('node:zlib');
const kb = (text) => `${(text.length / 1024).toFixed(1)} KB (${(gzipSync(text).length / 1024).toFixed(1)} KB gzipped)`;
console.log(`home page ${homePath}, slow 4G + 4x CPU, median of ${runs}; stylesheet ${kb(css)}${rest ? `, first screen ${kb(inline)}` : ''}`);
for (const [name, r] of Object.entries(results)) console.log(`  ${name.padEnd(46)} FCP ${r.fcp.toFixed(0)} ms  LCP ${r.lcp.toFixed(0)} ms`);
