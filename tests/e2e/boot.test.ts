/**
 * The pre-paint boot (client/boot.ts) settles what the first paint shows: the call-to-action
 * variant and its texts, the consent banner, a dismissed call to action, the root home's saved
 * language. The enhancement script then loads after the load event (R-VIS-8: it is no longer in
 * the first paint's way) and must find everything as the boot left it: nothing on screen changes
 * when it starts. Each case is captured at the load event, before the script is added, and again
 * once it has started. Expected values come from the content and the client's own rules
 * (client/variant.ts), so the boot's compact copy of them is held to the real ones.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled, urlOf } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';
import { chooseVariant } from '../../client/variant.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
const key = c.site.storageKey as string;

/** What the first paint and the started page show. */
async function capture(page: import('playwright-core').Page) {
  return page.evaluate(() => {
    const shown = (sel: string) => {
      const el = document.querySelector<HTMLElement>(sel);
      return Boolean(el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
    };
    const text = (sel: string) => document.querySelector(sel)?.textContent?.trim() ?? null;
    return {
      variant: document.documentElement.dataset.variant ?? null,
      banner: shown('[data-consent]'),
      card: shown('[data-cta]'),
      bar: shown('[data-cta-bar]'),
      primary: text('[data-cta-primary]'),
      secondary: text('[data-cta-secondary]'),
      barBox: JSON.stringify(document.querySelector('[data-cta-bar]')?.getBoundingClientRect() ?? null),
      bannerBox: JSON.stringify(document.querySelector('[data-consent]')?.getBoundingClientRect() ?? null),
    };
  });
}

interface Case {
  name: string;
  /** Local hour in the browser. */
  hour: number;
  local?: Record<string, string>;
  session?: Record<string, string>;
  expect: { consent: 'granted' | 'denied' | 'unset'; returning: boolean; dismissed?: boolean };
}

const cases: Case[] = [
  { name: 'a first visit by day', hour: 12, expect: { consent: 'unset', returning: false } },
  { name: 'a first visit at night', hour: 23, expect: { consent: 'unset', returning: false } },
  { name: 'consent given, returning, by day', hour: 12, local: { consent: 'granted', returning: 'true' }, expect: { consent: 'granted', returning: true } },
  { name: 'consent refused, at dawn', hour: 6, local: { consent: 'denied', returning: 'true' }, expect: { consent: 'denied', returning: false } },
  { name: 'the call to action dismissed in this session', hour: 15, session: { ctaDismissed: '1' }, expect: { consent: 'unset', returning: false, dismissed: true } },
];

describe.skipIf(!hasChrome)('[R-VIS-8] the pre-paint boot', () => {
  const env = browserOnSite();

  async function open(context: BrowserContext, path: string, k: Case) {
    await context.addInitScript(
      ({ key, local, session }) => {
        for (const [n, v] of Object.entries(local)) localStorage.setItem(`${key}.${n}`, v);
        for (const [n, v] of Object.entries(session)) sessionStorage.setItem(`${key}.${n}`, v);
      },
      { key, local: k.local ?? {}, session: k.session ?? {} },
    );
    // The hour, not a fake clock: Playwright's clock fakes performance marks too (settled() reads one).
    await context.addInitScript((hour) => (Date.prototype.getHours = () => hour), k.hour);
    const page = await context.newPage();
    // At the load event the enhancement script is not there yet (it is added a frame later).
    await page.addInitScript(() => addEventListener('load', () => ((window as unknown as { atLoad: unknown }).atLoad = { script: Boolean(document.querySelector('script[src*="/assets/main"]')) })));
    await page.goto(`${env.base}${path}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => 'atLoad' in window);
    return page;
  }

  it.each(cases)('$name: the first paint shows what the started page shows', async (k) => {
    const context = await offlineContext(env.browser, { width: 390, height: 844 });
    const page = await open(context, '/', k);
    expect(await page.evaluate(() => (window as unknown as { atLoad: { script: boolean } }).atLoad.script), 'the script was added before the load event').toBe(false);
    const first = await capture(page);
    await settled(page);
    const started = await capture(page);
    expect(first, 'what the script changed on screen').toEqual(started);

    // And it is what the client's rules say.
    const data = JSON.parse((await page.locator('#site-data').textContent())!) as { cta: { defaultVariant: string; variants: { id: string; primary: string }[] } };
    const variant = chooseVariant({ returning: k.expect.returning, hour: k.hour, directActionSources: [], defaultVariant: data.cta.defaultVariant });
    expect(first.variant).toBe(variant);
    expect(first.banner).toBe(k.expect.consent === 'unset');
    expect(first.card || first.bar).toBe(!k.expect.dismissed);
    if (!k.expect.dismissed) expect(first.primary).toBe(data.cta.variants.find((v) => v.id === variant)!.primary);
    await context.close();
  });

  it('the root home sends a saved language to its home page before anything is painted, without loading the script there', async () => {
    const other = c.others[0];
    if (!other) return;
    const context = await offlineContext(env.browser);
    await context.addInitScript(({ key, other }) => localStorage.setItem(`${key}.lang`, other), { key, other });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`${env.base}/?utm_source=x#top`);
    await page.waitForURL((u) => u.pathname !== '/');
    const target = new URL(page.url());
    expect(target.pathname).toBe(urlOf(c.file('/', other)));
    expect(target.search + target.hash).toBe('?utm_source=x#top');
    // The script was requested once, by the language's home page, never by the root.
    await settled(page);
    expect(requests.filter((p) => p.startsWith('/assets/main')).length).toBe(1);
    await context.close();
  });

  it('when the script cannot load (offline, blocked), the consent banner it would answer is not left on screen', async () => {
    const context = await offlineContext(env.browser);
    await context.route(/\/assets\/main\.[0-9a-f]+\.js$/, (route) => route.abort());
    const page = await context.newPage();
    await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => ((window as unknown as { atParsed: string }).atParsed = getComputedStyle(document.querySelector('[data-consent]')!).display)));
    await page.goto(`${env.base}/`);
    expect(await page.evaluate(() => (window as unknown as { atParsed: string }).atParsed), 'shown once parsed').toBe('block');
    await page.waitForFunction(() => !('consentShown' in document.documentElement.dataset), undefined, { timeout: 10_000 });
    expect(await page.locator('[data-consent]').isVisible()).toBe(false);
    // The call bar is back at the bottom of the screen.
    const bar = (await page.locator('[data-cta-bar]').boundingBox())!;
    expect(bar.y + bar.height).toBeCloseTo(844, 0);
    await context.close();
  });

  it('a banner painted half-parsed would grow upwards (a layout shift): it shows only once parsed to its last button', async () => {
    const context = await offlineContext(env.browser, { width: 412, height: 823 });
    const page = await context.newPage();
    await page.goto(`${env.base}/about`);
    await settled(page);
    // The boot's flag as on a first visit, the banner still hidden by its attribute (before main.js),
    // and the banner as the parser leaves it before its last button arrives.
    const display = await page.evaluate(() => {
      const banner = document.querySelector<HTMLElement>('[data-consent]')!;
      document.documentElement.dataset.consentShown = '';
      banner.hidden = true;
      const whole = getComputedStyle(banner).display;
      const last = banner.querySelector('.consent-actions > :last-child')!;
      last.remove();
      const half = getComputedStyle(banner).display;
      return { whole, half };
    });
    expect(display).toEqual({ whole: 'block', half: 'none' });
    await context.close();
  });
});
