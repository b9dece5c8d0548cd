/**
 * R-VIS-8 in Chromium: the home page inlines only its first screen's rules and links the whole
 * stylesheet where that screen ends (tests/integration/first-round-trip.test.ts: the sizes). Nothing
 * may look different for it: the first screen is complete without the linked file, and nothing
 * below it is ever shown before that file has loaded (no flash of unstyled content).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
const STYLESHEET = /\/assets\/site\.[0-9a-f]+\.css$/;
/** The home page's URL path in each language ('/', '/es', ...). */
const homes = c.languages.map((lang) => ({ lang, path: lang === c.defaultLanguage ? '/' : `/${lang}` }));

/**
 * Every element of the body before the linked stylesheet (its ancestors left out: their height
 * depends on what follows), with its box and its computed style.
 */
function firstScreen(page: Page) {
  return page.evaluate(() => {
    // Every standard property, listed once: a computed style lists its properties anew on each
    // index read (129 elements took ~300 ms a call, this ~90). Custom properties are left out:
    // they show only through the standard properties that use them, which are compared.
    const names = [...getComputedStyle(document.documentElement)].filter((n) => !n.startsWith('--'));
    const link = document.querySelector('body link[rel="stylesheet"]');
    const out: { what: string; box: string; style: string }[] = [];
    for (const el of document.querySelectorAll('body *')) {
      if (!link || el === link || el.contains(link)) continue;
      if (!(link.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING)) break;
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      const props: string[] = [];
      for (const n of names) props.push(`${n}: ${s.getPropertyValue(n)}`);
      out.push({ what: `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}`, box: [r.x, r.y, r.width, r.height].map(Math.round).join(','), style: props.join('; ') });
    }
    return { linked: Boolean(link), elements: out };
  });
}

describe.skipIf(!hasChrome)('[R-VIS-8] the first screen inline, the rest of the stylesheet after it', () => {
  const env = browserOnSite();
  let context: BrowserContext;
  /** The page as it loads, and the page without its linked stylesheet; each test loads both again. */
  let page: Page;
  let without: Page;
  beforeAll(async () => {
    // The banner's choice made, so both loads show the same first screen.
    context = await offlineContext(env.browser, { width: 390, height: 800, consentDeclined: `${c.site.storageKey}.consent` });
    [page, without] = await Promise.all([context.newPage(), context.newPage()]);
    await without.route(STYLESHEET, (route) => route.abort());
  });
  afterAll(() => context?.close());

  // One test a language: both pages loaded once at 390 px, compared, then both resized to 1280 px
  // and compared again (a load per width and language took two loads more each; all four
  // languages in one test took 10.3 s in an idle run).
  it.each(homes)('at 390 and 1280 px, every element above the linked stylesheet looks the same without it: $lang', async ({ path }) => {
    for (const p of [page, without]) await p.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${env.base}${path}`);
    await settled(page);
    await without.goto(`${env.base}${path}`);
    await settled(without);
    for (const width of [390, 1280]) {
      if (width !== 390) {
        await page.setViewportSize({ width, height: 800 });
        await without.setViewportSize({ width, height: 800 });
        await settled(page);
        await settled(without);
      }
      const whole = await firstScreen(page);
      expect(whole.linked, `${path} links no stylesheet`).toBe(true);
      const alone = await firstScreen(without);
      // The hero, the call to action and the chrome at least.
      expect(whole.elements.length, path).toBeGreaterThan(40);
      expect(alone.elements.map((e) => e.what), `${path} at ${width} px`).toEqual(whole.elements.map((e) => e.what));
      const differ = whole.elements.flatMap((e, i) => {
        const a = alone.elements[i]!;
        if (a.box === e.box && a.style === e.style) return [];
        const theirs = new Set(a.style.split('; '));
        return [`${e.what}: box ${e.box} → ${a.box}; ${e.style.split('; ').filter((p) => !theirs.has(p)).slice(0, 3).join('; ')}`];
      });
      expect(differ, `${path} at ${width} px without the linked stylesheet`).toEqual([]);
    }
  });

  it('while the stylesheet loads, the first screen is painted and nothing below it is on the page yet', async () => {
    const page = await context.newPage();
    for (const { path } of homes) {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const hold = async (route: Route) => {
        await held;
        await route.continue();
      };
      await page.route(STYLESHEET, hold);
      // Not awaited: the document does not finish loading until the stylesheet is released.
      const loading = page.goto(`${env.base}${path}`);
      await page.waitForSelector('h1');
      await page.waitForFunction(() => performance.getEntriesByType('paint').some((e) => e.name === 'first-contentful-paint'));
      const before = await page.evaluate(() => {
        const link = document.querySelector('body link[rel="stylesheet"]');
        const after = [...document.querySelectorAll('body *')].filter((el) => link && link.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
        return { linked: Boolean(link), below: after.length, sections: document.querySelectorAll('main .section').length, h1: getComputedStyle(document.querySelector('h1')!).fontFamily };
      });
      expect(before.linked, path).toBe(true);
      expect(before.below, `${path}: elements below the pending stylesheet are on the page`).toBe(0);
      expect(before.sections, path).toBe(0);
      expect(before.h1, `${path}: the painted first screen is unstyled`).toMatch(/^ui-serif/);
      release();
      await loading;
      await settled(page);
      expect(await page.locator('main .section').count(), path).toBeGreaterThan(0);
      await page.unroute(STYLESHEET, hold);
    }
  });
});
