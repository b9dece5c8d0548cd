/** Served sites for browser tests: the run's shared build, or a changed copy rendered for one file. */
import type { Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sharedBrowser } from './browser.ts';
import { renderSite } from './render.ts';
import { copyContent, htmlFiles, materialize, SHIPPED_CONTENT } from './site.ts';
import { siteUrl } from './shared.ts';
import { startStaticServer } from '../../src/server/static.ts';

/**
 * Copy the content (`from`, the shipped content by default), let `change` edit it, build it in
 * memory, put the files in a folder and serve it (for a test that needs a site other than the
 * shared one). Close `server` after.
 */
export async function serveSite(change: (content: string) => void, from = SHIPPED_CONTENT): Promise<{ base: string; server: Server; out: string; files: string[]; content: string }> {
  const content = copyContent(from);
  change(content);
  const out = materialize((await renderSite(content)).out);
  const { server, url } = await startStaticServer({ root: out });
  return { base: url, server, out, files: htmlFiles(out), content };
}

/**
 * The run's Chromium and the shared build served as static files, for the tests of the calling
 * file. Read `browser` and `base` inside tests (the browser is connected by then).
 */
export function browserOnSite(): { readonly browser: Browser; readonly base: string } {
  const shared = sharedBrowser();
  const base = siteUrl();
  return {
    get browser() {
      return shared.browser;
    },
    base,
  };
}

/**
 * A fresh context that answers every external request itself (tests never reach out).
 * `consentDeclined`: the site's consent storage key, answered "denied" before any page loads (for
 * tests about the page under the banner).
 */
export async function offlineContext(browser: Browser, opts: { width?: number; height?: number; storageState?: Awaited<ReturnType<BrowserContext['storageState']>>; consentDeclined?: string } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 390, height: opts.height ?? 844 }, storageState: opts.storageState });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
  if (opts.consentDeclined) await context.addInitScript((key) => localStorage.setItem(key, 'denied'), opts.consentDeclined);
  return context;
}

/**
 * Wait until the client script has started (it loads after the load event, from the pre-paint
 * boot, then reads the shared data: client/boot.ts, client/main.ts marks `site:ready`), then one
 * frame more. Pages without the script (forwarding pages) wait only for the frame.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('script[data-main]') || performance.getEntriesByName('site:ready').length > 0, undefined, { timeout: 15_000 });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** The page URL of a built HTML file: `es/rates.html` -> `/es/rates`, `index.html` -> `/`. */
export function urlOf(file: string): string {
  const p = file.replace(/\.html$/, '');
  return p === 'index' ? '/' : `/${p}`;
}
