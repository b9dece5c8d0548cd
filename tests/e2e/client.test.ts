/** The client script in headless Chromium against the built site served on localhost. */
import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { edit, FIXTURE_CONTENT, htmlFiles, read, SHIPPED_CONTENT } from '../helpers/site.ts';
import { shippedOut, siteUrl } from '../helpers/shared.ts';
import { chromePath, NO_CHROME_MESSAGE, sharedBrowser } from '../helpers/browser.ts';
import { serveSite, settled } from '../helpers/serve.ts';
import { publishedPosts } from '../helpers/content.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const shared = hasChrome ? sharedBrowser() : undefined;
/** The phone and WhatsApp numbers the pages show, from the content under test. */
const { contact, storageKey } = parse(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')) as { contact: { phone: string; whatsapp: string }; storageKey: string };
/** The sample content changed by `change` (its known lines), rendered and served (the shipped site is the run's shared one). */
const serve = (change: (content: string) => void) => serveSite(change, FIXTURE_CONTENT);

/** A fresh context that answers external requests itself (tests never reach out) and records them. */
async function newContext(opts: { width?: number } = {}): Promise<{ context: BrowserContext; external: string[] }> {
  const context = await shared!.browser.newContext({ viewport: { width: opts.width ?? 390, height: 844 } });
  const external: string[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    external.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
  });
  return { context, external };
}

// The shipped site is the run's shared build and server. (The sweep of every page for console
// errors is sweep.test.ts's, with the production headers applied.)
const shipped = { base: siteUrl(), files: htmlFiles(shippedOut()), out: shippedOut() };

// Each test has a context of its own and only reads the shared site: the tests of a describe run
// side by side (describe.concurrent), overlapping their page loads; assertions use the test's own
// expect. (The R-SAFE-10 tests below stay one at a time: a layout-shift count is timing-sensitive.)
describe.skipIf(!hasChrome).concurrent('client behaviour (consent mode on, as shipped)', () => {
  const base = shipped.base;

  it('[R-JS-1] mobile menu: toggles with aria-expanded, closes on Escape, on a link and when Tab leaves it', async ({ expect }) => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await settled(page);
    const toggle = page.locator('summary.menu-toggle');
    const expanded = () => toggle.getAttribute('aria-expanded');
    expect(await expanded()).toBe('false');
    await toggle.click();
    await expect.poll(expanded).toBe('true');
    expect(await page.locator('.menu-panel').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(expanded).toBe('false');
    expect(await page.locator('.menu-panel').isVisible()).toBe(false);
    await toggle.click();
    await expect.poll(expanded).toBe('true');
    await page.locator('.menu-panel a[href="#gallery"]').click();
    await expect.poll(expanded).toBe('false');
    expect(await page.locator('.menu-panel').isVisible()).toBe(false);
    // Tabbing past its last item closes it: the next focus is never hidden under the panel (WCAG 2.4.11).
    await toggle.click();
    await expect.poll(expanded).toBe('true');
    await page.locator('.menu-panel :is(a, button, summary)').last().focus();
    await page.keyboard.press('Tab');
    await expect.poll(expanded).toBe('false');
    expect(await page.locator('.menu-panel').isVisible()).toBe(false);
    const covered = await page.evaluate(() => {
      const el = document.activeElement!;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && hit.closest('.menu-panel') !== null;
    });
    expect(covered).toBe(false);
    await context.close();
  });

  it('[R-JS-2][R-UI-5] gallery: arrows wrap both ways, thumbnails select, counter and keys follow, next 2 preloaded', async ({ expect }) => {
    const { context } = await newContext({ width: 1280 });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await settled(page);
    const g = page.locator('[data-carousel="gallery-lifestyle"]');
    const counter = g.locator('[data-counter]');
    const visible = async () => g.locator('[data-slide]:not([hidden])').getAttribute('data-slide');
    expect(await counter.innerText()).toBe('1 of 8');
    await g.locator('[data-prev]').click();
    expect(await counter.innerText()).toBe('8 of 8');
    expect(await visible()).toBe('7');
    await g.locator('[data-next]').click();
    expect(await counter.innerText()).toBe('1 of 8');
    await g.locator('[data-thumb="4"]').click();
    expect(await counter.innerText()).toBe('5 of 8');
    expect(await g.locator('[data-thumb="4"]').getAttribute('aria-current')).toBe('true');
    const loading = await g.locator('[data-slide] img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).loading));
    expect(loading[5]).toBe('eager');
    expect(loading[6]).toBe('eager');
    await g.focus();
    await page.keyboard.press('ArrowRight');
    expect(await counter.innerText()).toBe('6 of 8');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await counter.innerText()).toBe('4 of 8');
    expect(await page.locator('[data-featured]').isVisible()).toBe(false);
    await context.close();
  });

  it('[R-JS-2] the next 2 slides are fetched ahead only once a carousel nears the screen, never for the hidden one', async ({ expect }) => {
    const { context } = await newContext();
    const page = await context.newPage();
    const images: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'image') images.push(new URL(r.url()).pathname);
    });
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await settled(page);
    const loading = (id: string) => page.locator(`[data-carousel="${id}"] [data-slide] img`).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).loading));
    const slideFile = (id: string, n: number) =>
      page.locator(`[data-carousel="${id}"] [data-slide="${n}"] img`).evaluate((i) => new URL((i as HTMLImageElement).currentSrc || (i as HTMLImageElement).src, location.href).pathname);
    // On a phone the gallery is far below the first screen: nothing of it is fetched ahead at start-up.
    expect((await loading('gallery-lifestyle')).slice(1, 3)).toEqual(['lazy', 'lazy']);
    await page.locator('[data-carousel="gallery-lifestyle"]').scrollIntoViewIfNeeded();
    await expect.poll(async () => (await loading('gallery-lifestyle')).slice(1, 3)).toEqual(['eager', 'eager']);
    // The chosen source (AVIF or WebP) is known once the image starts loading: read it in the poll.
    await expect.poll(async () => images.includes(await slideFile('gallery-lifestyle', 1))).toBe(true);
    expect((await loading('gallery-lifestyle'))[3]).toBe('lazy');
    // The featured carousel is hidden (spec): its slides are never fetched ahead.
    expect((await loading('featured')).slice(1, 3)).toEqual(['lazy', 'lazy']);
    await context.close();
  });

  it('[R-JS-3][R-UI-6][R-UI-22] health dialog opens, toggles the medical details, and returns focus on close', async ({ expect }) => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await settled(page);
    const opener = page.locator('[data-dialog-open="health-dialog"]');
    await opener.click();
    const dialog = page.locator('#health-dialog');
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await page.locator('dialog').count()).toBe(1);
    const toggle = dialog.locator('[data-toggle]');
    expect(await page.locator('#health-details').isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#health-details').innerText()).toMatch(/every 3\s+months/);
    await toggle.click();
    expect(await page.locator('#health-details').isVisible()).toBe(false);
    await page.keyboard.press('Escape');
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    // With script the opener is a button (a link only without it), and Space opens it as Enter does.
    expect(await opener.getAttribute('role')).toBe('button');
    await page.keyboard.press(' ');
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await page.keyboard.press('Escape');
    await context.close();
  });

  // Two tests, each with its own context: one took up to 9.9 s of the 10 s budget in CI beside
  // four busy processes (four page loads, side by side with the describe's other tests).
  it('[R-JS-4] the language switch is saved and the root home honours it', async ({ expect }) => {
    const { context } = await newContext({ width: 1280 });
    const page = await context.newPage();
    await page.goto(`${base}/rates`);
    await settled(page);
    await page.locator('.header-tools-desktop a[data-lang="es"]').click();
    await page.waitForURL(`${base}/es/rates`);
    expect(await page.evaluate((key) => localStorage.getItem(`${key}.lang`), storageKey)).toBe('es');
    await page.goto(`${base}/`);
    await settled(page);
    await page.waitForURL(`${base}/es`);
    await context.close();
  });

  it('[R-JS-4] a saved language is not honoured by any page but the root home', async ({ expect }) => {
    const { context } = await newContext({ width: 1280 });
    await context.addInitScript((key) => localStorage.setItem(`${key}.lang`, 'es'), storageKey);
    const page = await context.newPage();
    await page.goto(`${base}/contact`);
    await settled(page);
    expect(page.url()).toBe(`${base}/contact`);
    expect(await page.evaluate((key) => localStorage.getItem(`${key}.lang`), storageKey)).toBe('es');
    await context.close();
  });

  it('[R-BOOK-2] booking validation: required fields and the 3-hour rule with localised, accessible messages', async ({ expect }) => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/es/booking`);
    await settled(page);
    // The city is chosen explicitly (its own test is booking-handoff.test.ts).
    await page.locator('#booking-city').selectOption('madrid');
    await page.locator('form[data-booking] button[type="submit"]').click();
    const name = page.locator('#booking-name');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#booking-name-error').innerText()).toBeTruthy();
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('[data-form-status]').getAttribute('role')).toBe('alert');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    // Sooner than 3 hours in Madrid points to a call or WhatsApp.
    const soon = await page.evaluate(() => {
      const f = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      const p = Object.fromEntries(f.formatToParts(Date.now() + 60 * 60 * 1000).map((x) => [x.type, x.value]));
      return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
    });
    await name.fill('Ana');
    await page.locator('#booking-date').fill(soon.date);
    await page.locator('#booking-time').fill(soon.time);
    await page.locator('#booking-duration').selectOption('1h');
    await page.locator('#booking-location').selectOption('hotel');
    await page.locator('form[data-booking] button[type="submit"]').click();
    expect(await page.locator('#booking-time').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-form-status]').innerText()).toContain(contact.phone);
    // A day already over is the date field's error, not the time's.
    await page.locator('#booking-date').fill('2020-01-01');
    await page.locator('form[data-booking] button[type="submit"]').click();
    expect(await page.locator('#booking-date').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#booking-time').getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('#booking-date').evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('[R-BOOK-1][R-BOOK-3][R-BOOK-4][R-BOOK-5] a valid booking opens the exact wa.me URL in a new tab and shows the success message', async ({ expect }) => {
    const { context, external } = await newContext();
    const page = await context.newPage();
    const own: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(base) && r.method() !== 'GET') own.push(r.url());
    });
    await page.goto(`${base}/booking?utm_source=eros&utm_medium=listing`);
    await settled(page);
    // The city is chosen explicitly (issue 22); the message says which.
    const cities = parse(readFileSync(path.join(SHIPPED_CONTENT, 'data/cities.yaml'), 'utf8')) as { id: string; status: string }[];
    const booked = cities.find((c) => c.status === 'active') ?? cities[0]!;
    await page.locator('#booking-city').selectOption(booked.id);
    await page.locator('#booking-name').fill('Carlos');
    await page.locator('#booking-phone').fill('+34 612 345 678');
    await page.locator('#booking-date').fill('2099-06-01');
    await page.locator('#booking-time').fill('21:30');
    await page.locator('#booking-duration').selectOption('dinner');
    await page.locator('#booking-location').selectOption('restaurant');
    await page.locator('#booking-message').fill('Мы — ¿vale? ελληνικά');
    // The spinner shows for 150 ms only: record it in the page, as a check after the popup opened
    // could come too late on a slow machine.
    await page.evaluate(() => {
      const spinner = document.querySelector<HTMLElement>('[data-spinner]')!;
      new MutationObserver(() => {
        if (!spinner.hidden && spinner.getClientRects().length > 0) document.documentElement.dataset.spinnerSeen = 'true';
      }).observe(spinner, { attributes: true, attributeFilter: ['hidden'] });
    });
    const [popup] = await Promise.all([context.waitForEvent('page'), page.locator('form[data-booking] button[type="submit"]').click()]);
    await popup.waitForURL(/^https:\/\/wa\.me\//);
    const variant = (await page.locator('html').getAttribute('data-variant'))!;
    // Expected text from the content files, independently of the client's builder.
    const cta = parse(readFileSync(path.join(SHIPPED_CONTENT, 'data/cta.yaml'), 'utf8'));
    const es = parse(readFileSync(path.join(SHIPPED_CONTENT, 'i18n/es.yaml'), 'utf8'));
    const text = [
      cta.messages.intro[variant].replace('{city}', cta.messages.cityLine.replace('{city}', es.city[booked.id].name)),
      'Nombre: Carlos',
      'Teléfono: +34 612 345 678',
      // The date as the message language writes it, not as the form stores it (issue 22).
      `Fecha: ${new Intl.DateTimeFormat(es.lang.locale, { dateStyle: 'full', timeZone: 'UTC' }).format(Date.UTC(2099, 5, 1))}`,
      'Hora: 21:30',
      `Duración: ${es.booking.duration.dinner}`,
      // The place in the client's own words (issue 22: "mi hotel", not the form's "Tu hotel").
      `Lugar: ${es.booking.messageLocation.restaurant}`,
      'Mensaje: Мы — ¿vale? ελληνικά',
      'Ref: eros / listing',
    ].join('\n');
    expect(popup.url()).toBe(`https://wa.me/${contact.whatsapp.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`);
    await page.locator('[data-booking-success]').waitFor();
    expect(await page.locator('html').getAttribute('data-spinner-seen')).toBe('true');
    expect(await page.locator('[data-spinner]').isVisible()).toBe(false);
    expect(await page.locator('[data-booking-success]').innerText()).toContain(contact.phone.replace(/ /g, '\u00a0'));
    expect(own).toEqual([]);
    expect(external.filter((u) => !u.startsWith('https://wa.me/'))).toEqual([]);
    await context.close();
  });

  it('[R-BOOK-6] the floating card and every WhatsApp link use the same builder; tel: stays in the tab', async ({ expect }) => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/madrid-vip-escort`);
    await settled(page);
    const [popup] = await Promise.all([context.waitForEvent('page'), page.locator('a[data-whatsapp]').first().click()]);
    await popup.waitForURL(/wa\.me/);
    const text = decodeURIComponent(popup.url().split('text=')[1]!);
    expect(text).toMatch(/ en Madrid/);
    for (const tel of await page.locator('a[href^="tel:"]').all()) expect(await tel.getAttribute('target')).toBeNull();
    await context.close();
  });

  it('[R-PRIV-1] before a choice nothing but the language is stored and no analytics runs; Reject keeps it so', async ({ expect }) => {
    const { context, external } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/s/eros-madrid?utm_source=eros&utm_campaign=x`);
    await page.waitForURL(`${base}/madrid-vip-escort?utm_source=eros&utm_campaign=x`);
    expect(await page.evaluate(() => sessionStorage.getItem('from_stealth'))).toBeNull();
    const banner = page.locator('[data-consent]');
    await banner.waitFor();
    const [accept, reject] = await banner.locator('button').all();
    const box = async (l: typeof accept) => (await l!.boundingBox())!;
    expect(Math.abs((await box(accept)).width - (await box(reject)).width)).toBeLessThan(2);
    expect(await accept!.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(await reject!.evaluate((e) => getComputedStyle(e).backgroundColor));
    const stored = await page.evaluate(() => Object.keys(localStorage));
    expect(stored).toEqual([]);
    await reject!.click();
    expect(await page.evaluate(() => Object.keys(localStorage).sort())).toEqual([`${storageKey}.consent`]);
    // The message carries only this visit's source.
    const [popup] = await Promise.all([context.waitForEvent('page'), page.locator('a[data-whatsapp]').first().click()]);
    await popup.waitForURL(/wa\.me/);
    expect(decodeURIComponent(popup.url())).toMatch(/Ref: eros \/ x$/);
    expect(external.filter((u) => !u.startsWith('https://wa.me/'))).toEqual([]);
    // The footer link reopens the choice.
    await page.locator('footer [data-consent-open]').click();
    expect(await banner.isVisible()).toBe(true);
    await context.close();
  });

  it('[R-JS-8][R-PRIV-1] after Accept, a /s/ page sets from_stealth and forwards with the query string', async ({ expect }) => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/about`);
    await settled(page);
    await page.locator('[data-consent] button[data-consent-choice="accept"]').click();
    expect(await page.evaluate((key) => localStorage.getItem(`${key}.returning`), storageKey)).toBe('true');
    await page.goto(`${base}/s/therichest?utm_source=therichest&x=1#top`);
    await page.waitForURL(`${base}/about?utm_source=therichest&x=1#top`);
    await settled(page);
    // The next page view reads the flag and clears it.
    expect(await page.evaluate(() => sessionStorage.getItem('from_stealth'))).toBeNull();
    const attribution = await page.evaluate((key) => JSON.parse(localStorage.getItem(`${key}.attribution`) ?? 'null'), storageKey);
    expect(attribution.last.source).toBe('therichest');
    await context.close();
  });

  it('[R-ROUTE-6] a redirect stub forwards keeping query string and hash', async () => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/es/monaco-escort?utm_source=a#areas`);
    await page.waitForURL(`${base}/es/monaco-elite-companion?utm_source=a#areas`);
    await context.close();
  });

  it('[R-JS-13][R-PRIV-3] the service worker serves the offline page and caches no visited page', async ({ expect }) => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/es/rates`);
    await settled(page);
    // Registered only after Accept (R-BRAND-5; service-worker-consent.test.ts).
    await page.locator('[data-consent] [data-consent-choice="accept"]').click();
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const urls: string[] = [];
      for (const n of names) for (const r of await (await caches.open(n)).keys()) urls.push(new URL(r.url).pathname);
      return urls;
    });
    expect(cached).toContain('/es/offline');
    expect(cached.filter((u) => !u.startsWith('/assets/') && !u.endsWith('/offline') && u !== '/offline')).toEqual([]);
    await context.setOffline(true);
    await page.goto(`${base}/es/contact`).catch(() => undefined);
    expect(await page.locator('h1').innerText()).toBeTruthy();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('main').innerText()).not.toContain('WhatsApp, phone');
    await context.close();
  });
});

describe.skipIf(!hasChrome)('[R-PRIV-2][R-JS-11] consent mode off with an analytics provider', () => {
  let base: string;
  let server: Server;
  beforeAll(async () => {
    ({ base, server } = await serve((c) => {
      edit(c, 'site.yaml', 'consent: true', 'consent: false');
      edit(c, 'site.yaml', 'provider: none', 'provider: plausible\n  domain: aurelia-companion.example\n  src: https://plausible.example/js/script.manual.js');
    }));
  });
  afterAll(() => server?.close());

  it('[R-JS-9] loads the analytics script at once, sends the page view with attribution and from_stealth, stores the return-visitor flag, shows no banner', async () => {
    const { context, external } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/s/girlsmadrid-madrid?utm_source=girlsmadrid`);
    await page.waitForURL(`${base}/madrid-vip-escort?utm_source=girlsmadrid`);
    await page.waitForFunction(() => Array.isArray(window.plausible?.q));
    // The queue exists as soon as the script is added; its request reaches the route a moment later.
    await expect.poll(() => external.some((u) => u.startsWith('https://plausible.example/js/'))).toBe(true);
    expect(await page.locator('[data-consent]').count()).toBe(0);
    expect(await page.locator('html').getAttribute('data-variant')).toBe('direct_action');
    const events = await page.evaluate(() => (window.plausible!.q as unknown[][]).map((a) => a[0]));
    expect(events).toEqual(expect.arrayContaining(['stealth_visit', 'directory_view', 'pageview', 'site_visit', 'directory_first_contact']));
    expect(events.filter((e) => e === 'pageview')).toHaveLength(1);
    const props = await page.evaluate(() => (window.plausible!.q as [string, { props: Record<string, unknown> }][]).find((a) => a[0] === 'pageview')![1].props);
    expect(props.from_stealth).toBe(true);
    expect(props.last_source).toBe('girlsmadrid');
    expect(props.first_source).toBe('girlsmadrid');
    // from_stealth was read, then cleared: the next page view does not carry it.
    expect(await page.evaluate(() => sessionStorage.getItem('from_stealth'))).toBeNull();
    await page.goto(`${base}/rates`);
    await settled(page);
    await page.waitForFunction(() => Array.isArray(window.plausible?.q));
    const next = await page.evaluate(() => (window.plausible!.q as [string, { props: Record<string, unknown> }][]).find((a) => a[0] === 'pageview')![1].props);
    expect(next.from_stealth).toBe(false);
    expect(next.first_source).toBe('girlsmadrid');
    expect(await page.evaluate(() => localStorage.getItem('aurelia.returning'))).toBe('true');
    await context.close();
  });
});

describe.skipIf(!hasChrome)('[R-PRIV-1] consent mode on with an analytics provider', () => {
  let base: string;
  let server: Server;
  beforeAll(async () => {
    ({ base, server } = await serve((c) => edit(c, 'site.yaml', 'provider: none', 'provider: plausible\n  domain: aurelia-companion.example\n  src: https://plausible.example/js/script.manual.js')));
  });
  afterAll(() => server?.close());

  it('sends no analytics request before Accept, and the queued page view after it', async () => {
    const { context, external } = await newContext();
    const page = await context.newPage();
    await page.goto(`${base}/rates?utm_source=slixa`);
    await settled(page);
    await page.mouse.wheel(0, 2000);
    // Scrolled, the scroll handled, and the network quiet (anything the scroll started has been requested).
    await page.waitForFunction(() => window.scrollY > 0);
    await settled(page);
    await page.waitForLoadState('networkidle');
    expect(external).toEqual([]);
    await page.locator('[data-consent] button[data-consent-choice="accept"]').click();
    await page.waitForFunction(() => Array.isArray(window.plausible?.q));
    expect(external.some((u) => u.startsWith('https://plausible.example/'))).toBe(true);
    const events = await page.evaluate(() => (window.plausible!.q as unknown[][]).map((a) => a[0]));
    expect(events[0]).toBe('pageview');
    await context.close();
  });
});

describe.skipIf(!hasChrome)('[R-UI-15] blog filter enhancement', () => {
  const base = shipped.base;

  it('filters the list in place, moves the address to the category page, announces the new heading, and Back restores it', async () => {
    const { context } = await newContext();
    const page = await context.newPage();
    // Spanish posts and one category's share of them, from the content.
    const posts = publishedPosts('es');
    const culture = posts.filter((p) => p.category === 'culture').length;
    expect(culture).toBeGreaterThan(0);
    await page.goto(`${base}/es/blog`);
    await settled(page);
    const visible = () => page.locator('.post-card:visible').count();
    expect(await visible()).toBe(posts.length);
    await page.locator('.filters a[data-filter="culture"]').click();
    expect(page.url()).toBe(`${base}/es/blog/category/culture`);
    expect(await visible()).toBe(culture);
    expect(await page.locator('.filters a[data-filter="culture"]').getAttribute('aria-current')).toBe('page');
    const categoryTitle = await page.locator('h1').innerText();
    // Announced, as a new page's title would be: the status region says the new heading (WCAG 4.1.3).
    const status = page.getByRole('status');
    expect(await status.textContent()).toBe(categoryTitle);
    // Every post again, in place; then Back to the category: filtered and said again (popstate).
    await page.locator('.filters a[data-filter=""]').click();
    expect(await visible()).toBe(posts.length);
    const allTitle = await page.locator('h1').innerText();
    expect(allTitle).not.toBe(categoryTitle);
    expect(await status.textContent()).toBe(allTitle);
    await page.goBack();
    await expect.poll(visible).toBe(culture);
    expect(await status.textContent()).toBe(categoryTitle);
    await page.goBack();
    await expect.poll(visible).toBe(posts.length);
    expect(await page.locator('h1').innerText()).toBe(allTitle);
    // The real category page shows the same heading.
    await page.goto(`${base}/es/blog/category/culture`);
    await settled(page);
    expect(await page.locator('h1').innerText()).toBe(categoryTitle);
    await context.close();
  });
});

describe.skipIf(!hasChrome)('[R-SAFE-10] the booking form exists only for a script that handles it', () => {
  const base = shipped.base;

  it('[R-SAFE-10] the form posts, never gets: no field can reach a URL', () => {
    const html = read(shipped.out, 'booking.html');
    expect(html).toMatch(/<form[^>]*data-booking[^>]*method="post"/);
  });

  it('[R-SAFE-10] with the client script blocked the direct links show and the form cannot be used', async () => {
    const { context } = await newContext();
    await context.route(/\/assets\/main\.[0-9a-f]+\.js$/, (route) => route.abort());
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${base}/booking`);
    await page.waitForLoadState('load');
    expect(await page.locator('[data-booking-fallback]').isVisible()).toBe(true);
    expect(await page.locator('[data-booking-fallback] a[href^="https://wa.me/"]').first().isVisible()).toBe(true);
    expect(await page.locator('form[data-booking]').isVisible()).toBe(false);
    // Not even a keyboard user can reach a field of it.
    await page.keyboard.press('Tab');
    for (let i = 0; i < 40; i++) {
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('form[data-booking]')))).toBe(false);
      await page.keyboard.press('Tab');
    }
    expect(requests.filter((u) => u.includes('?') && /name=|phone=|email=/.test(u))).toEqual([]);
    await context.close();
  });

  it('[R-SAFE-10] with the script running the form replaces the links in the same place: nothing moves', async () => {
    const { context } = await newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      (window as unknown as { __shift: number }).__shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) (window as unknown as { __shift: number }).__shift += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${base}/booking`);
    await settled(page);
    await page.waitForSelector('[data-booking-slot][data-ready]');
    expect(await page.locator('form[data-booking]').isVisible()).toBe(true);
    expect(await page.locator('[data-booking-fallback]').isVisible()).toBe(false);
    await settled(page);
    // CLS 0 as Lighthouse reports it (three decimals, R-VIS-8). One idle CI run measured 0.0003
    // here (a sub-pixel move; its source was not found: not reproduced in 12 loads, throttled or not).
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.0005);
    await context.close();
  });
});
