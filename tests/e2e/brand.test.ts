/**
 * The visual system in Chromium (issue 22, "Look"): one grid on every page type, and the rates page
 * as a calm price list rather than a board of cards. Pages and figures come from the content under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
const pagePath = (id: string) => c.pages.find((p: { id: string }) => p.id === id)!.path as string;

describe.skipIf(!hasChrome)('one visual system (issue 22)', () => {
  const env = browserOnSite();
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await offlineContext(env.browser, { width: 1280, height: 800, consentDeclined: `${c.site.storageKey}.consent` });
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  /** The content box (left edge, width) of the first grid container in <main> and of the header's. */
  const boxes = () =>
    page.evaluate(() => {
      const box = (el: Element | null) => {
        if (!el) return null;
        const r = el.getBoundingClientRect();
        const s = getComputedStyle(el);
        const left = r.left + parseFloat(s.paddingLeft);
        return { left: Math.round(left), width: Math.round(r.right - parseFloat(s.paddingRight) - left) };
      };
      return { main: box(document.querySelector('main .container')), header: box(document.querySelector('.site-header .container')) };
    });

  it('[R-BRAND-1] every page type has its main container at the same left edge and width as the header at 1280 px (no strip kept for the card)', async () => {
    await page.goto(`${env.base}/blog`);
    const post = await page.locator('main .post-card h2 a').first().getAttribute('href');
    const paths = ['/', pagePath('about'), pagePath('rates'), pagePath('booking'), pagePath('contact'), pagePath('dinner-date'), pagePath('privacy'), ...c.cities.map((x: { path: string }) => x.path), '/blog', post!];
    const seen: Record<string, unknown> = {};
    for (const p of paths) {
      await page.goto(`${env.base}${p}`);
      await settled(page);
      const b = await boxes();
      expect(b.main, p).not.toBeNull();
      seen[p] = b.main;
      expect(b.main, p).toEqual(b.header);
    }
    const first = Object.values(seen)[0];
    for (const [p, b] of Object.entries(seen)) expect(b, p).toEqual(first);
    // The content uses the page: not a column ending 370 px before the right edge.
    expect((first as { width: number }).width).toBeGreaterThan(1280 * 0.8);
  });

  it('[R-BRAND-2] /rates is a price list: one row per tier, each with its name, duration and price, on one line at 1280 px', async () => {
    await page.goto(`${env.base}${pagePath('rates')}`);
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll('main ol.price-list > li.rate')].map((li) => {
        const part = (sel: string) => li.querySelector(sel);
        const list = li.parentElement!.getBoundingClientRect();
        const r = li.getBoundingClientRect();
        const top = (el: Element | null) => (el ? Math.round(el.getBoundingClientRect().top) : -1);
        return {
          id: li.id,
          name: part('h2')?.textContent ?? '',
          label: part('.badge')?.textContent ?? '',
          duration: part('.rate-duration')?.textContent ?? '',
          price: part('.price')?.textContent ?? '',
          fullWidth: Math.abs(r.width - list.width) < 1,
          // Name (with its label above), duration and price share the row's first line.
          aligned: Math.abs(top(part('.rate-duration')) - top(part('.price'))) <= 4 && top(part('.rate-duration')) < top(part('.rate-desc')),
        };
      }),
    );
    expect(rows.map((r) => r.id)).toEqual(c.rates.tiers.map((t: { id: string }) => `rate-${t.id}`));
    for (const r of rows) {
      expect(r.name, r.id).toBeTruthy();
      expect(r.label, r.id).toBeTruthy();
      expect(r.duration, r.id).toBeTruthy();
      expect(r.price, r.id).toMatch(/\d/);
      expect(r.fullWidth, `${r.id} spans the list (a row, not a card in a grid)`).toBe(true);
      expect(r.aligned, `${r.id} duration and price on one line`).toBe(true);
    }
    for (const [i, tier] of c.rates.tiers.entries()) expect(rows[i]!.price).toContain(c.money(tier.price, 'en'));
  });
});
