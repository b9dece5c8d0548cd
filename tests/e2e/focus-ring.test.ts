/**
 * The keyboard focus ring of every focusable element stands out from what is behind it (WCAG 1.4.11
 * non-text contrast, 3:1): on the light page and on the dark surfaces (the call-to-action card, the
 * phone's call bar, the footer), with the consent banner shown, as on a first visit.
 */
import { describe, expect, it } from 'vitest';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled } from '../helpers/serve.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

interface Ring {
  what: string;
  style: string;
  width: number;
  ratio: number;
}

describe.skipIf(!hasChrome)('focus ring contrast', () => {
  const env = browserOnSite();

  it.each([
    ['/', 390],
    ['/', 1280],
    ['/booking', 390],
  ] as const)('%s at %i px: every focusable element gets a solid ring of at least 3:1 against what surrounds it', async (path, width) => {
    const context = await offlineContext(env.browser, { width });
    const page = await context.newPage();
    await page.goto(`${env.base}${path}`);
    await settled(page);
    // Keyboard use first, so focus() shows the ring as Tab would (:focus-visible).
    await page.keyboard.press('Tab');
    const rings: Ring[] = await page.evaluate(() => {
      type RGBA = [number, number, number, number];
      const parse = (c: string): RGBA => {
        const m = c.match(/rgba?\(([^)]+)\)/);
        if (!m) return [0, 0, 0, 0];
        const [r, g, b, a = '1'] = m[1]!.split(/[\s,/]+/).filter(Boolean);
        return [Number(r), Number(g), Number(b), Number(a)];
      };
      // What is painted behind an element's outline: its ancestors' backgrounds, composited (white at the end).
      const behind = (el: Element | null): RGBA => {
        if (!el) return [255, 255, 255, 1];
        const own = parse(getComputedStyle(el).backgroundColor);
        if (own[3] >= 1) return own;
        const under = behind(el.parentElement);
        const a = own[3];
        return [own[0] * a + under[0] * (1 - a), own[1] * a + under[1] * (1 - a), own[2] * a + under[2] * (1 - a), 1];
      };
      const luminance = ([r, g, b]: RGBA) => {
        const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      };
      const contrast = (x: RGBA, y: RGBA) => {
        const [l1, l2] = [luminance(x), luminance(y)].sort((p, q) => q - p);
        return (l1! + 0.05) / (l2! + 0.05);
      };
      const focusable = [...document.querySelectorAll<HTMLElement>('a[href], button, summary, input, select, textarea, [tabindex]:not([tabindex="-1"])')];
      return focusable
        .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[inert], [hidden]'))
        .flatMap((el) => {
          el.focus();
          // Not focusable as it is (inside a closed menu, a hidden panel): Tab never reaches it.
          if (document.activeElement !== el) return [];
          const s = getComputedStyle(el);
          const what = `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
          return [{ what, style: s.outlineStyle, width: parseFloat(s.outlineWidth), ratio: Math.round(contrast(parse(s.outlineColor), behind(el.parentElement)) * 100) / 100 }];
        });
    });
    await context.close();
    expect(rings.length).toBeGreaterThan(10);
    const weak = rings.filter((r) => r.style === 'none' || r.width < 2 || r.ratio < 3);
    expect(weak, 'focus rings under 3:1, thinner than 2 px or none').toEqual([]);
  });
});
