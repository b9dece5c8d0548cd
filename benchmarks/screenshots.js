#!/usr/bin/env node
// Screenshots of every page type at 390 and 1280 px in every language, for a person to look at.
// Usage: node benchmarks/screenshots.js [--dist dist] [--out /tmp/screens] [--langs en,es,ru,el]
// It builds nothing: run `SOURCE_DATE_EPOCH=1763800000 npm run build` first. Serves the folder with
// `site serve` (the host's rules), answers every request outside 127.0.0.1 itself, and writes
// full-page PNGs named <lang>-<type>-<width>.png. The consent banner is answered (Reject) first so
// it does not cover the page.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const dist = path.resolve(root, arg('--dist', 'dist'));
const out = path.resolve(arg('--out', '/tmp/screens'));
const langs = arg('--langs', 'en,es,ru,el').split(',');
const defaultLang = 'en';
/** One page of each type (paths in the default language; others get the language prefix). */
const TYPES = {
  home: '/',
  about: '/about',
  rates: '/rates',
  booking: '/booking',
  contact: '/contact',
  city: '/madrid-vip-escort',
  'city-upcoming': '/athens-vip-companion',
  service: '/services/dinner-date',
  blog: '/blog',
  category: '/blog/category/lifestyle',
  post: '/blog/madrid-luxury-dining',
  privacy: '/privacy',
  legal: '/legal',
  'not-found': '/404',
};

mkdirSync(out, { recursive: true });
const port = 8790 + Math.floor(Math.random() * 100);
const server = spawn(process.execPath, [path.join(root, 'bin/site.js'), 'serve', '--out', dist, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve) => server.stdout.once('data', resolve));
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: width < 800 ? 844 : 800 } });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, body: '' }));
    const page = await context.newPage();
    await page.goto(`${base}/`);
    // The script that answers the banner loads after the load event (client/boot.ts): wait for it.
    await page.waitForFunction(() => performance.getEntriesByName('site:ready').length > 0, undefined, { timeout: 15_000 }).catch(() => {});
    await page.locator('[data-consent] button').last().click().catch(() => {});
    for (const lang of langs) {
      for (const [type, p] of Object.entries(TYPES)) {
        const url = lang === defaultLang ? p : p === '/' ? `/${lang}` : `/${lang}${p}`;
        await page.goto(`${base}${url}`, { waitUntil: 'load' });
        // Scroll through once so lazy images below the fold are loaded into the full-page picture.
        await page.evaluate(async () => {
          for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
            scrollTo(0, y);
            await new Promise((r) => setTimeout(r, 60));
          }
          scrollTo(0, 0);
        });
        await page.waitForLoadState('networkidle').catch(() => {});
        const file = path.join(out, `${lang}-${type}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.kill();
}
