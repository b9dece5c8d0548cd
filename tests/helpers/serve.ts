/** Build a fixture site and serve it on localhost for browser tests; contexts that never reach out. */
import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { buildSite, copyContent, htmlFiles, SHIPPED_CONTENT } from './site.ts';
import { startStaticServer } from '../../src/server/static.ts';

/** Build a copy of the shipped content (optionally changed), serve it, and return its base URL. */
export async function serveSite(change?: (content: string) => void): Promise<{ base: string; server: Server; out: string; files: string[]; content: string }> {
  const content = copyContent(SHIPPED_CONTENT);
  change?.(content);
  const { out } = await buildSite(content);
  const { server, url } = await startStaticServer({ root: out });
  return { base: url, server, out, files: htmlFiles(out), content };
}

/**
 * Chromium and the shipped site served, for the tests of the calling describe block: started
 * before them, stopped after. Read `browser` and `base` inside tests (they are set by then).
 */
export function browserOnSite(): { readonly browser: Browser; readonly base: string } {
  let browser: Browser | undefined;
  let site: Awaited<ReturnType<typeof serveSite>> | undefined;
  beforeAll(async () => {
    [browser, site] = await Promise.all([launchBrowser(), serveSite()]);
  });
  afterAll(async () => {
    site?.server.close();
    await browser?.close();
  });
  return {
    get browser() {
      return browser!;
    },
    get base() {
      return site!.base;
    },
  };
}

/** A fresh context that answers every external request itself (tests never reach out). */
export async function offlineContext(browser: Browser, opts: { width?: number; height?: number; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 390, height: opts.height ?? 844 }, storageState: opts.storageState });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
  return context;
}

/** Wait until the client's second start-up step (after the first paint) has run. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** The page URL of a built HTML file: `es/rates.html` -> `/es/rates`, `index.html` -> `/`. */
export function urlOf(file: string): string {
  const p = file.replace(/\.html$/, '');
  return p === 'index' ? '/' : `/${p}`;
}
