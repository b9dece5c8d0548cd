/**
 * Headless Chromium for end-to-end tests (playwright-core with Debian's chromium). The e2e tier
 * starts one browser for the whole run (tests/setup/browser.ts); test files connect to it.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

/** Chromium's path, or undefined when it is not installed. */
export function chromePath(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p));
}

export const NO_CHROME_MESSAGE = 'Chromium not found: install it with `apt-get install -y chromium` or set CHROME_PATH; browser tests skipped.';

/**
 * How Chromium runs here: headless, no sandbox (root in CI), nothing that reaches out on its own,
 * and no host but this machine resolved: a request to the internet fails at once (and shows as a
 * failed load) in every context, with or without a test's route answering it.
 */
export const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

/** Launch a browser of one's own (a test that needs a fresh browser process); playwright gives it a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromePath();
  if (!executablePath) throw new Error(NO_CHROME_MESSAGE);
  return chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
}

/**
 * The run's shared Chromium, for the tests of the calling file: connected before them and
 * disconnected after (the browser itself keeps running for other files). Read `.browser` inside tests.
 */
export function sharedBrowser(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    const ws = inject('browserWs');
    if (!ws) throw new Error(NO_CHROME_MESSAGE);
    browser = await chromium.connect(ws);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      return browser!;
    },
  };
}

/**
 * Tabs kept open across a file's tests and handed out again (`take`, then `give` when done; `close`
 * after the file). Opening a tab costs Chromium more than loading a page in it: its browser process
 * creates the tab and starts a renderer process for it. 40 page loads in one tab took 6.2 s and
 * 2.8 s of the browser process's CPU; in a new tab each, 16.3 s and 9.5 s. `setup` runs once per
 * new tab (listeners, init scripts). A tab keeps its page until the next test navigates it.
 */
export function tabPool(context: () => BrowserContext, setup?: (page: Page) => Promise<void>): { take(): Promise<Page>; give(page: Page): void; close(): Promise<void> } {
  const idle: Page[] = [];
  const all: Page[] = [];
  return {
    async take() {
      const reused = idle.pop();
      if (reused) return reused;
      const page = await context().newPage();
      all.push(page);
      await setup?.(page);
      return page;
    },
    give(page) {
      if (!page.isClosed()) idle.push(page);
    },
    async close() {
      await Promise.all(all.map((page) => page.close()));
    },
  };
}
