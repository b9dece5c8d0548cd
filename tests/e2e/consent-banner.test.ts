/**
 * The consent banner for keyboard and small-screen visitors (R-BRAND-3, issue 22 "Defects"): the
 * first stop in the focus order, never over a focused element (WCAG 2.2 2.4.11) nor over the
 * phone's WhatsApp/Call bar, at most a third of a 320x568 screen, and after a choice focus goes to
 * a sensible place, never the body. Pages and languages come from the content under test.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled, urlOf } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
/** The published languages (draft ones are not in site.yaml languages). */
const languages = c.languages;
const pagePath = c.pagePath;
const url = (routePath: string, lang: string) => urlOf(c.file(routePath, lang));

/** Where focus is: inside the banner, the body, or an element with its box and what covers it. */
async function focusState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const banner = document.querySelector<HTMLElement>('[data-consent]')!;
    const bar = document.querySelector<HTMLElement>('[data-cta-bar]');
    if (!el || el === document.body) return { where: 'body' as const };
    const describe = `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    if (banner.contains(el)) return { where: 'banner' as const, describe };
    const r = el.getBoundingClientRect();
    const fixed = [banner, bar].filter((x): x is HTMLElement => Boolean(x && !x.hidden && x.getClientRects().length && !x.contains(el)));
    const covers = fixed.filter((x) => {
      const o = x.getBoundingClientRect();
      // Less than a pixel of overlap hides nothing.
      return o.width > 0 && o.height > 0 && r.left < o.right - 1 && r.right > o.left + 1 && r.top < o.bottom - 1 && r.bottom > o.top + 1;
    });
    // An element taller than the space between the sticky header and the fixed bars cannot show
    // whole: its top part must show.
    const free = Math.min(innerHeight, ...fixed.map((x) => x.getBoundingClientRect().top)) - (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0);
    const tooTall = r.height > free;
    const ok = covers.length === 0 || (tooTall && fixed.every((x) => r.top < x.getBoundingClientRect().top - 24));
    return { where: 'page' as const, describe, covered: ok ? [] : covers.map((x) => (x === banner ? 'consent banner' : 'call bar')), inBar: Boolean(bar?.contains(el)), y: scrollY };
  });
}

describe.skipIf(!hasChrome)('[R-BRAND-3] the consent banner and the keyboard', () => {
  const env = browserOnSite();

  it('[R-BRAND-3] is the first Tab stop, in every language', async () => {
    const context = await offlineContext(env.browser, { width: 320, height: 568 });
    const page = await context.newPage();
    for (const lang of languages) {
      await page.goto(`${env.base}${url('/', lang)}`);
      await settled(page);
      await page.keyboard.press('Tab');
      expect((await focusState(page)).where, lang).toBe('banner');
    }
    await context.close();
  });

  for (const [width, height] of [
    [320, 568],
    [1280, 800],
  ] as const)
    it(`[R-BRAND-3] at ${width}x${height}: Tab through the home and booking pages never lands on an element under the banner or the call bar, nor scrolls for the bar's own controls`, async () => {
      const context = await offlineContext(env.browser, { width, height });
      const page = await context.newPage();
      const hidden: string[] = [];
      for (const p of ['/', pagePath('booking')]) {
        await page.goto(`${env.base}${url(p, c.defaultLanguage)}`);
        await settled(page);
        await page.locator('[data-consent]').waitFor();
        let stops = 0;
        let y: number | undefined;
        // Every stop of the page, until focus leaves the document (or a generous limit).
        for (; stops < 200; stops++) {
          await page.keyboard.press('Tab');
          const s = await focusState(page);
          if (s.where === 'body') break;
          if (s.where === 'page' && s.covered.length) hidden.push(`${p}: ${s.describe} under the ${s.covered.join(' and ')}`);
          // The fixed bar's own controls never scroll the page when focused (it does not move).
          if (s.where === 'page' && s.inBar && y !== undefined && s.y !== y) hidden.push(`${p}: focusing ${s.describe} in the call bar scrolled the page ${s.y - y} px`);
          y = s.where === 'page' ? s.y : undefined;
        }
        expect(stops, `${p}: the walk reached the end of the page`).toBeLessThan(200);
      }
      expect(hidden).toEqual([]);
      await context.close();
    });

  it('[R-BRAND-3] at 320x568 it covers at most a third of the screen and leaves the WhatsApp/Call bar visible, in every language', async () => {
    const context = await offlineContext(env.browser, { width: 320, height: 568 });
    const page = await context.newPage();
    const problems: string[] = [];
    for (const lang of languages) {
      await page.goto(`${env.base}${url('/', lang)}`);
      await settled(page);
      const m = await page.evaluate(() => {
        const banner = document.querySelector('[data-consent]')!.getBoundingClientRect();
        const bar = document.querySelector('[data-cta-bar]')?.getBoundingClientRect();
        const call = [...document.querySelectorAll<HTMLElement>('[data-cta-bar] a')].map((a) => {
          const r = a.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return Boolean(hit && a.contains(hit));
        });
        return { height: banner.height, top: banner.top, bottom: banner.bottom, barTop: bar?.top, barBottom: bar?.bottom, call };
      });
      if (m.height > 568 / 3) problems.push(`${lang}: the banner is ${Math.round(m.height)} px tall (${Math.round((m.height / 568) * 100)} % of the screen)`);
      expect(m.barTop, `${lang}: the home page has the call bar`).toBeDefined();
      // The bar sits on top of the banner (anchored to it, CSS only): the two never overlap.
      const overlap = Math.min(m.bottom, m.barBottom!) - Math.max(m.top, m.barTop!);
      if (overlap > 0.5) problems.push(`${lang}: the banner and the call bar overlap by ${Math.round(overlap)} px`);
      if (m.bottom < 568 - 0.5) problems.push(`${lang}: the banner ends ${Math.round(568 - m.bottom)} px above the bottom of the screen`);
      if (m.call.length === 0 || m.call.includes(false)) problems.push(`${lang}: the call bar's WhatsApp and Call links are not both on top (${JSON.stringify(m.call)})`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('[R-BRAND-3] on short screens (a phone held sideways, a page zoomed to 400 %) the header scrolls away and the banner takes at most 40 % of the height', async () => {
    for (const [width, height] of [
      [844, 390],
      [320, 256],
    ] as const) {
      const context = await offlineContext(env.browser, { width, height });
      const page = await context.newPage();
      await page.goto(`${env.base}${url('/', c.defaultLanguage)}`);
      await settled(page);
      await page.locator('[data-consent]').waitFor();
      await page.evaluate(() => scrollTo(0, 600));
      const seen = await page.evaluate(() => {
        const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
        const bar = document.querySelector<HTMLElement>('[data-cta-bar]');
        const barTop = bar && bar.getClientRects().length ? bar.getBoundingClientRect().top : innerHeight;
        return { headerBottom: box('.site-header').bottom, banner: box('[data-consent]').height, free: Math.min(barTop, box('[data-consent]').top) - Math.max(0, box('.site-header').bottom) };
      });
      expect(seen.headerBottom, `${width}x${height}: the header scrolled away`).toBeLessThanOrEqual(0);
      expect(seen.banner, `${width}x${height}: the banner's height`).toBeLessThanOrEqual(height * 0.4 + 1);
      expect(seen.free, `${width}x${height}: the page's own room`).toBeGreaterThanOrEqual(height / 3);
      await context.close();
    }
  });

  it('[R-BRAND-3] after a choice made from the keyboard focus moves on to the page; reopened, focus returns to the link that reopened it', async () => {
    const context = await offlineContext(env.browser, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${env.base}${url(pagePath('contact'), c.defaultLanguage)}`);
    await settled(page);
    // Tab into the banner and on to Accept, then press Enter.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.getAttribute('data-consent-choice') === 'accept')) break;
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-consent-choice'))).toBe('accept');
    await page.keyboard.press('Enter');
    expect(await page.locator('[data-consent]').isVisible()).toBe(false);
    const after = await page.evaluate(() => {
      const el = document.activeElement!;
      return { body: el === document.body, skip: Boolean(el.closest('.skip-links')), main: el.id === 'main' };
    });
    expect(after.body, 'focus dropped to the body').toBe(false);
    // The next stop after the banner: the skip links (or the main content).
    expect(after.skip || after.main).toBe(true);

    // Reopened from the footer and answered: focus is back on the footer link.
    const opener = page.locator('footer [data-consent-open]');
    await opener.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('[data-consent]').isVisible()).toBe(true);
    expect((await focusState(page)).where).toBe('banner');
    await page.locator('[data-consent] [data-consent-choice="reject"]').focus();
    await page.keyboard.press('Enter');
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);

    // A choice made with the pointer does not leave focus on the body either.
    await opener.click();
    await page.locator('[data-consent] [data-consent-choice="accept"]').click();
    expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
    await context.close();
  });
});
