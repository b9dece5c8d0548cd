/** In headless Chromium with JavaScript off: every page reads, navigation works, booking explains itself. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { SHIPPED_CONTENT } from '../helpers/site.ts';
import { publishedPosts, yaml } from '../helpers/content.ts';

const { defaultLanguage, contact } = yaml('site.yaml') as { defaultLanguage: string; contact: { phone: string; whatsapp: string } };
const { postsPerPage } = yaml('data/blog.yaml') as { postsPerPage: number };
import { shippedOut, siteUrl } from '../helpers/shared.ts';
import { inTabs, pageGroups, urlPathOf } from '../helpers/groups.ts';
import { chromePath, NO_CHROME_MESSAGE, sharedBrowser, tabPool } from '../helpers/browser.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

// The run's shared build: the page sweep is one test per small group of pages.
const out = shippedOut();
const groups = pageGroups(out);
/** Redirect stubs (data/redirects.yaml `from` paths, in every language) forward at once: not swept. */
const stubs = new Set((load(readFileSync(path.join(SHIPPED_CONTENT, 'data/redirects.yaml'), 'utf8')) as { from: string }[]).map((r) => r.from.slice(1)));

describe.skipIf(!hasChrome)('[R-UI-18] with JavaScript off', () => {
  const shared = sharedBrowser();
  const base = siteUrl();
  let context: BrowserContext;
  // The file's tabs, reused from test to test (tabPool).
  const tabs = tabPool(() => context);

  beforeAll(async () => {
    context = await shared.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  });
  afterAll(() => tabs.close());

  it.each(groups)('[R-SAFE-7] $name: every page renders its main content and header navigation', async ({ files }) => {
    // A few tabs at a time (inTabs); each page read in one call: one main with text, one h1, one footer with the age notice.
    const pages = files.filter((f) => !stubs.has(f.replace(/\.html$/, '').replace(/^[a-z]{2,3}(?:-[A-Z]{2})?\//, '')));
    await inTabs(pages, () => tabs.take(), async (f, page) => {
      const url = `${base}${urlPathOf(f)}`;
      const res = await page.goto(url);
      expect(res!.status(), url).toBe(200);
      const seen = await page.evaluate(() => ({
        mains: document.querySelectorAll('main').length,
        main: document.querySelector('main')?.innerText ?? '',
        h1s: document.querySelectorAll('h1').length,
        footers: document.querySelectorAll('footer').length,
        footer: document.querySelector('footer')?.innerText ?? '',
      }));
      expect(seen.mains, `${f} has one main`).toBe(1);
      expect(seen.main.trim().length, `${f} main is empty`).toBeGreaterThan(40);
      expect(seen.h1s, `${f} has one h1`).toBe(1);
      expect(seen.footers, `${f} has one footer`).toBe(1);
      expect(seen.footer, f).toContain('18+');
    }, async (page) => tabs.give(page));
  });

  it('the mobile menu opens without JavaScript and its links navigate', async () => {
    const page = await tabs.take();
    await page.goto(`${base}/es`);
    await page.locator('summary.menu-toggle').click();
    await page.locator('.menu-panel nav a[href="/es/rates"]').click();
    await page.waitForURL(`${base}/es/rates`);
    expect(await page.locator('h1').innerText()).toBeTruthy();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
  });

  it('the language switcher leads to the same page in another language', async () => {
    const page = await tabs.take();
    await page.goto(`${base}/ru/blog/monaco-grand-prix`);
    await page.locator('summary.menu-toggle').click();
    await page.locator('.menu-panel .lang-switch a[hreflang="el"]').click();
    await page.waitForURL(`${base}/el/blog/monaco-grand-prix`);
  });

  it('[R-UI-23] the booking page explains how to book: direct WhatsApp link and phone number', async () => {
    const page = await tabs.take();
    await page.goto(`${base}/booking`);
    expect(await page.locator('form[data-booking]').isVisible()).toBe(false);
    const wa = page.locator('main a[href^="https://wa.me/"]').first();
    expect(await wa.isVisible()).toBe(true);
    expect(await wa.getAttribute('href')).toBe(`https://wa.me/${contact.whatsapp.replace(/\D/g, '')}`);
    const tel = page.locator('main a[href^="tel:"]').first();
    expect(await tel.isVisible()).toBe(true);
    // Shown whole: its spaces no-break (a number never wraps).
    expect(await tel.innerText()).toContain(contact.phone.replace(/ /g, '\u00a0'));
  });

  it('[R-UI-15] blog category filters are links that work without JavaScript', async () => {
    const page = await tabs.take();
    const posts = publishedPosts(defaultLanguage);
    // A category with posts, and the titles it must list (from the content, not literals).
    const category = posts[0]!.category;
    const titles = posts.filter((p) => p.category === category).map((p) => p.title).sort();
    await page.goto(`${base}/blog`);
    expect(await page.locator('.post-card').count()).toBe(Math.min(posts.length, postsPerPage));
    await page.locator(`.filters a[href="/blog/category/${category}"]`).click();
    await page.waitForURL(`${base}/blog/category/${category}`);
    expect((await page.locator('.post-card h2').allInnerTexts()).map((t) => t.trim()).sort()).toEqual(titles);
  });

  it('[R-UI-6][R-UI-5] the health details open from their link and close again; the gallery shows no counter it cannot keep', async () => {
    const page = await tabs.take();
    await page.goto(`${base}/`);
    const dialog = page.locator('#health-dialog');
    expect(await dialog.isVisible()).toBe(false);
    await page.locator('a[href="#health-dialog"]').click();
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.locator('[data-dialog-close]').isVisible()).toBe(false);
    await dialog.getByRole('link').click();
    expect(await dialog.isVisible()).toBe(false);
    // Every slide is shown without script: a "1 of n" would be wrong.
    expect(await page.locator('[data-counter]').first().isVisible()).toBe(false);
    expect(await page.locator('.carousel-slide').nth(1).isVisible()).toBe(true);
  });

  it('unknown paths get the not-found page of their language with status 404', async () => {
    const page = await tabs.take();
    const res = await page.goto(`${base}/el/no-such-page`);
    expect(res!.status()).toBe(404);
    expect(await page.locator('html').getAttribute('lang')).toBe('el');
  });
});
