/**
 * A GitHub Pages project site: built with `--base-url https://example.github.io/site --host static`,
 * served under /site/ by a plain static server (as GitHub Pages serves a project site: clean URLs,
 * the project's 404.html for unknown paths, nothing outside /site/), and clicked through in Chromium.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, copyContent, htmlFiles, read, serveCli, SHIPPED_CONTENT } from '../helpers/site.ts';
import { chromePath, NO_CHROME_MESSAGE, sharedBrowser } from '../helpers/browser.ts';
import { serveStatic } from '../../src/server/static.ts';
import { startDevServer } from '../../src/server/dev.ts';
import { hostRules } from '../helpers/hosts.ts';
import { settled } from '../helpers/serve.ts';

const BASE = '/site';
const hasChrome = chromePath() !== undefined;
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

let out: string;
let server: Server;
let origin = '';

beforeAll(async () => {
  ({ out } = await buildSite(copyContent(SHIPPED_CONTENT), ['--host', 'static', '--base-url', `https://example.github.io${BASE}`]));
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url !== BASE && !url.startsWith(`${BASE}/`)) return void res.writeHead(404).end('Not Found');
    req.url = url.slice(BASE.length) || '/';
    // GitHub Pages serves the project's one 404.html, whatever the language.
    serveStatic(req, res, { root: out, notFound: () => '404.html' }).catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.address();
  origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}, 240_000);

afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('GitHub Pages project site (--base-url with a path)', () => {
  it('[R-HOST-4] every link, asset, form action and forward target in every page is under the base path', () => {
    const bad: string[] = [];
    for (const f of htmlFiles(out)) {
      const html = read(out, f);
      for (const m of html.matchAll(/\s(href|src|action|data-target|srcset|content)="(\/[^"]*)"/g)) {
        const urls = m[1] === 'srcset' ? m[2]!.split(/,\s*/).map((s) => s.split(/\s+/)[0]!) : [m[2]!.replace(/^0; url=/, '')];
        for (const u of urls) if (u.startsWith('/') && !u.startsWith('//') && u !== BASE && !u.startsWith(`${BASE}/`)) bad.push(`${f}: ${m[1]}="${u}"`);
      }
      const refresh = /http-equiv="refresh" content="0; url=([^"]+)"/.exec(html);
      if (refresh && !refresh[1]!.startsWith(`${BASE}/`)) bad.push(`${f}: refresh ${refresh[1]}`);
    }
    expect(bad.slice(0, 20)).toEqual([]);
  });

  it('[R-HOST-4] manifest, sitemap, robots.txt and the service worker are under the base path', () => {
    const manifest = JSON.parse(read(out, 'manifest.webmanifest')) as { start_url: string; scope: string; icons: { src: string }[] };
    expect(manifest.start_url).toBe(`${BASE}/`);
    expect(manifest.scope).toBe(`${BASE}/`);
    for (const i of manifest.icons) expect(i.src.startsWith(`${BASE}/assets/`), i.src).toBe(true);
    const locs = [...read(out, 'sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>|href="([^"]+)"/g)].map((m) => m[1] ?? m[2]!);
    expect(locs.length).toBeGreaterThan(10);
    for (const l of locs) expect(l.startsWith(`https://example.github.io${BASE}/`), l).toBe(true);
    expect(read(out, 'robots.txt')).toContain(`Sitemap: https://example.github.io${BASE}/sitemap.xml`);
    // Precached URLs of the service worker.
    const sw = read(out, 'sw.js');
    const precached = [...sw.matchAll(/"(\/[a-z][^"]*)"/g)].map((m) => m[1]!);
    expect(precached.length).toBeGreaterThan(2);
    for (const p of precached) expect(p.startsWith(`${BASE}/`), p).toBe(true);
    const rules = hostRules(out);
    for (const r of rules.redirects) expect(`${r.from} ${r.to}`).toMatch(new RegExp(`^${BASE}/\\S+ ${BASE}/\\S+$`));
  });

  it('[R-HOST-4] site serve serves the build under its base path with the 301s and per-language 404s there', async () => {
    const rules = hostRules(out);
    const server = await startDevServer({ root: out, port: 0 });
    try {
      const r = await fetch(`${server.url}${rules.redirects[0]!.from}?q=1`, { redirect: 'manual' });
      expect(r.status).toBe(301);
      expect(r.headers.get('location')).toBe(`${rules.redirects[0]!.to}?q=1`);
      expect((await fetch(`${server.url}${BASE}/`)).status).toBe(200);
      expect((await fetch(`${server.url}/`)).status).toBe(404);
      const lang = rules.notFound[0]!;
      expect(lang.prefix.startsWith(`${BASE}/`)).toBe(true);
      const nf = await fetch(`${server.url}${lang.prefix}nope`);
      expect(nf.status).toBe(404);
      expect(await nf.text()).toBe(read(out, lang.page.slice(BASE.length + 1)));
    } finally {
      await server.close();
    }
  });

  it('[R-HOST-4] `site serve` gives the address where the pages are: under the base path', async () => {
    const { url, stop } = await serveCli(['--out', out, '--port', '0']);
    try {
      expect(new URL(url).pathname).toBe(`${BASE}/`);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      await stop();
    }
  });

  describe.skipIf(!hasChrome)('in Chromium', () => {
    const shared = sharedBrowser();

    it('[R-HOST-4] clicking through home, a menu page, a language and a redirect stub loads nothing that answers 404; the service worker controls /site/', async () => {
      const site = parse(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')) as { languages: string[]; defaultLanguage: string };
      const other = site.languages.find((l) => l !== site.defaultLanguage)!;
      const redirect = (parse(readFileSync(path.join(SHIPPED_CONTENT, 'data', 'redirects.yaml'), 'utf8')) as { from: string; to: string }[])[0]!;
      const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 204, body: '' }));
      const page = await context.newPage();
      const failed: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      });
      // A request cut off by the next navigation (the favicon, fetched after load) is not a
      // missing file: only failures of another kind count.
      page.on('requestfailed', (r) => {
        if (r.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`failed ${r.url()}: ${r.failure()?.errorText}`);
      });
      await page.goto(`${origin}${BASE}/`);
      await page.waitForLoadState('load');
      // A link of the main navigation, then the language switcher, then the logo back home.
      // A menu item this width shows (the brand links home; some items are in the phone menu only).
      const nav = page.locator('header nav a[href^="/site/"]').filter({ visible: true }).first();
      const navHref = (await nav.getAttribute('href'))!;
      await nav.click();
      await page.waitForURL(`${origin}${navHref.split('#')[0]}**`);
      await page.locator(`a[data-lang="${other}"]`).first().dispatchEvent('click');
      await page.goto(`${origin}${(await page.locator(`a[data-lang="${other}"]`).first().getAttribute('href'))!}`);
      expect(await page.locator('html').getAttribute('lang')).toBe(other);
      await page.goto(`${origin}${BASE}${redirect.from}?ref=x`);
      await page.waitForURL(`${origin}${BASE}${redirect.to}?ref=x`);
      await page.goto(`${origin}${BASE}/`);
      // The script that answers the banner loads after the load event (client/boot.ts).
      await settled(page);
      // The service worker is registered only after Accept (R-BRAND-5).
      await page.locator('[data-consent] [data-consent-choice="accept"]').click();
      const scope = await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        return reg.scope;
      });
      expect(scope).toBe(`${origin}${BASE}/`);
      expect(failed).toEqual([]);
      await context.close();
    }, 240_000);
  });
});
