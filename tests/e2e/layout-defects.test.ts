/**
 * Layout defects a reviewer found at phone widths (issue 22, "Defects"), in every language of the
 * shipped site: the skip links. (The contact page's opening hours and the space between a page's
 * photo and the next section's divider are checked with the other layout checks, one page load
 * each: tablet-layout.test.ts.) Languages come from the content under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled, urlOf } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
/** The published languages (draft ones are not in site.yaml languages). */
const languages = c.languages;
const url = (routePath: string, lang: string) => urlOf(c.file(routePath, lang));

describe.skipIf(!hasChrome)('layout at phone widths, every language (issue 22)', () => {
  const env = browserOnSite();
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await offlineContext(env.browser, { width: 320, height: 568, consentDeclined: `${c.site.storageKey}.consent` });
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  it('[R-UI-2] the skip links show nothing until focused, then show whole, at 320 px', async () => {
    await page.setViewportSize({ width: 320, height: 568 });
    const problems: string[] = [];
    for (const lang of languages) {
      await page.goto(`${env.base}${url('/', lang)}`);
      await settled(page);
      // Hit-test the top of the screen, where the header is: no point may land on a skip link.
      const hits = await page.evaluate(() => {
        const found = new Set<string>();
        for (let y = 0; y < 96; y += 4) for (let x = 0; x < innerWidth; x += 4) {
          const el = document.elementFromPoint(x, y);
          if (el?.closest('.skip-links')) found.add(`${x},${y}`);
        }
        return found.size;
      });
      if (hits) problems.push(`${lang}: a skip link covers ${hits} sampled points of the header before any focus`);
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const r = el.getBoundingClientRect();
        const atCentre = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          inSkipLinks: Boolean(el.closest('.skip-links')),
          inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
          whole: el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1,
          shown: atCentre === el || el.contains(atCentre),
        };
      });
      expect(focused.inSkipLinks, `${lang}: the first Tab reaches the skip links`).toBe(true);
      if (!focused.inside || !focused.whole || !focused.shown) problems.push(`${lang}: the focused skip link is not shown whole on the screen (${JSON.stringify(focused)})`);
    }
    expect(problems).toEqual([]);
  });
});
