/** Gallery on phones (swipe, image size) and the Instagram link on wide screens and in the footer. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { SHIPPED_CONTENT } from '../helpers/site.ts';
import { browserOnSite, offlineContext, settled } from '../helpers/serve.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);
const site = load(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')) as { languages: string[]; defaultLanguage: string; social: Record<string, string> };

/** A real touch swipe (Chromium's input pipeline, not synthetic DOM events) across `selector`. */
async function swipe(page: Page, selector: string, dx: number): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  const y = box.y + box.height / 2;
  const x0 = box.x + box.width / 2 - dx / 2;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y }] });
  for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x0 + (dx * i) / 5, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe.skipIf(!hasChrome)('gallery and social links', () => {
  const env = browserOnSite();

  it('[R-UI-5][R-JS-2] on a phone a swipe moves the gallery both ways (wrapping), and the main image is as wide as the thumbnails', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, body: '' }));
    const page = await context.newPage();
    await page.goto(`${env.base}/`);
    await settled(page);
    const g = '[data-carousel]:not([data-featured] *)';
    const carousel = page.locator(g).first();
    await carousel.scrollIntoViewIfNeeded();
    const total = await carousel.locator('[data-slide]').count();
    const current = () => carousel.locator('[data-slide]:not([hidden])').getAttribute('data-slide');
    const stage = `${g} >> nth=0 >> .carousel-slides`;
    expect(await current()).toBe('0');
    await swipe(page, stage, -160);
    await expect.poll(current).toBe('1');
    await swipe(page, stage, 160);
    await expect.poll(current).toBe('0');
    await swipe(page, stage, 160);
    await expect.poll(current).toBe(String(total - 1));
    // A short move is not a swipe.
    await swipe(page, stage, 20);
    expect(await current()).toBe(String(total - 1));

    const image = (await carousel.locator('[data-slide]:not([hidden]) img').boundingBox())!;
    const thumbs = (await carousel.locator('.thumbs').boundingBox())!;
    expect(image.width).toBeGreaterThanOrEqual(thumbs.width - 1);
    await context.close();
  });

  it('[R-UI-12] Instagram is linked in the header at 1200 and 1280 px and in the footer, in every language', async () => {
    const instagram = site.social.instagram!;
    const context = await offlineContext(env.browser, { width: 1200, height: 800 });
    const page = await context.newPage();
    for (const lang of site.languages) {
      await page.goto(`${env.base}/${lang === site.defaultLanguage ? '' : lang}`);
      for (const width of [1200, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        const link = page.locator(`header a[href="${instagram}"]`).filter({ visible: true });
        expect(await link.count(), `${lang} at ${width}px`).toBe(1);
        const box = (await link.boundingBox())!;
        expect(box.x + box.width, `${lang} at ${width}px`).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => document.querySelector('.header-bar')!.scrollWidth <= document.querySelector('.header-bar')!.clientWidth), lang).toBe(true);
      }
      expect(await page.locator(`footer a[href="${instagram}"]`).isVisible(), lang).toBe(true);
    }
    await context.close();
  });
});
