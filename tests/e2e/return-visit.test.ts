/** The return-visitor flag in headless Chromium: only an earlier browser session makes a return. */
import { describe, expect, it } from 'vitest';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled } from '../helpers/serve.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

describe.skipIf(!hasChrome)('return visitor (consent mode on, as shipped)', () => {
  const env = browserOnSite();

  it('[R-VIS-2] the pages of a first visit never count as a return; a later env.browser session does', async () => {
    const first = await offlineContext(env.browser);
    const page = await first.newPage();
    await page.goto(`${env.base}/`);
    await settled(page);
    await page.locator('[data-consent] button').first().click();
    const variant = () => page.locator('html').getAttribute('data-variant');
    for (const path of ['/rates', '/contact']) {
      await page.goto(`${env.base}${path}`);
      await settled(page);
      expect(await variant(), path).not.toBe('premium_service');
    }
    // A new env.browser session keeps localStorage (what a closed and reopened env.browser keeps) but not
    // sessionStorage: now the visitor is a returning one, on every page of that session.
    const { origins } = await first.storageState();
    await first.close();
    const second = await offlineContext(env.browser, { storageState: { cookies: [], origins } });
    const again = await second.newPage();
    for (const path of ['/rates', '/contact']) {
      await again.goto(`${env.base}${path}`);
      await settled(again);
      expect(await again.locator('html').getAttribute('data-variant'), path).toBe('premium_service');
    }
    await second.close();
  });
});
