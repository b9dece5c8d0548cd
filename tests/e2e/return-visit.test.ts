/** The return-visitor flag in headless Chromium: only an earlier browser session makes a return. */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromePath, launchBrowser, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { offlineContext, serveSite, settled } from '../helpers/serve.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

describe.skipIf(!hasChrome)('return visitor (consent mode on, as shipped)', () => {
  let browser: Browser;
  let base: string;
  let server: Server;
  beforeAll(async () => {
    [browser, { base, server }] = await Promise.all([launchBrowser(), serveSite()]);
  });
  afterAll(async () => {
    server?.close();
    await browser?.close();
  });

  it('[R-VIS-2] the pages of a first visit never count as a return; a later browser session does', async () => {
    const first = await offlineContext(browser);
    const page = await first.newPage();
    await page.goto(`${base}/`);
    await settled(page);
    await page.locator('[data-consent] button').first().click();
    const variant = () => page.locator('html').getAttribute('data-variant');
    for (const path of ['/rates', '/contact']) {
      await page.goto(`${base}${path}`);
      await settled(page);
      expect(await variant(), path).not.toBe('premium_service');
    }
    // A new browser session keeps localStorage (what a closed and reopened browser keeps) but not
    // sessionStorage: now the visitor is a returning one, on every page of that session.
    const { origins } = await first.storageState();
    await first.close();
    const second = await offlineContext(browser, { storageState: { cookies: [], origins } });
    const again = await second.newPage();
    for (const path of ['/rates', '/contact']) {
      await again.goto(`${base}${path}`);
      await settled(again);
      expect(await again.locator('html').getAttribute('data-variant'), path).toBe('premium_service');
    }
    await second.close();
  });
});
