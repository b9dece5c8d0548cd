/**
 * The service worker only with consent (R-BRAND-5, decisions.md "Privacy and consent", issue 22):
 * on a shared phone its registration alone would reveal the site. Nothing is registered or cached
 * before a choice or after Reject; Accept registers it; Reject removes it and its caches; consent
 * mode off registers it at once, as the spec describes.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, serveSite, settled, urlOf } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';
import { edit } from '../helpers/site.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
const pagePath = (id: string) => c.pages.find((p: { id: string }) => p.id === id)!.path as string;

/** Registrations and cache names this origin holds. */
const workerState = (page: Page) =>
  page.evaluate(async () => ({
    registrations: (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope),
    caches: await caches.keys(),
  }));

/** Let the page load, start its script and do anything it would do after the load event. */
async function loaded(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await settled(page);
  await page.waitForLoadState('networkidle');
}

describe.skipIf(!hasChrome)('[R-BRAND-5] the service worker waits for Accept', () => {
  const env = browserOnSite();

  it('[R-BRAND-5] nothing is registered or cached before a choice; Accept registers it; Reject removes it and its caches', async () => {
    const context = await offlineContext(env.browser);
    const page = await context.newPage();
    await page.goto(`${env.base}${urlOf(c.file(pagePath('rates'), c.others[0] ?? c.defaultLanguage))}`);
    await loaded(page);
    expect(await workerState(page)).toEqual({ registrations: [], caches: [] });
    // A second page of the same visit, still without a choice.
    await page.goto(`${env.base}${urlOf(c.file(pagePath('contact'), c.defaultLanguage))}`);
    await loaded(page);
    expect(await workerState(page)).toEqual({ registrations: [], caches: [] });

    await page.locator('[data-consent] [data-consent-choice="accept"]').click();
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(async () => (await workerState(page)).caches.length).toBeGreaterThan(0);
    expect((await workerState(page)).registrations).toEqual([`${env.base}/`]);

    await page.locator('footer [data-consent-open]').click();
    await page.locator('[data-consent] [data-consent-choice="reject"]').click();
    await expect.poll(() => workerState(page)).toEqual({ registrations: [], caches: [] });
    // And it stays away on the next pages.
    await page.reload();
    await loaded(page);
    expect(await workerState(page)).toEqual({ registrations: [], caches: [] });
    await context.close();
  });

  it('[R-BRAND-5] a worker registered before this rule (no choice stored) is removed on the next visit', async () => {
    const context = await offlineContext(env.browser);
    const page = await context.newPage();
    await page.goto(`${env.base}/`);
    await loaded(page);
    // As the old script did: registered without consent.
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
    });
    expect((await workerState(page)).registrations).toHaveLength(1);
    await page.reload();
    await loaded(page);
    await expect.poll(() => workerState(page)).toEqual({ registrations: [], caches: [] });
    await context.close();
  });
});

describe.skipIf(!hasChrome)('[R-BRAND-5][R-PRIV-2] consent mode off', () => {
  const env = browserOnSite();
  let base: string;
  let server: Server;
  beforeAll(async () => {
    ({ base, server } = await serveSite((dir) => edit(dir, 'site.yaml', 'consent: true', 'consent: false')));
  });
  afterAll(() => server?.close());

  it('[R-BRAND-5][R-PRIV-2] registers the service worker at once, as the spec describes', async () => {
    const context = await offlineContext(env.browser);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await loaded(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    expect((await workerState(page)).registrations).toEqual([`${base}/`]);
    await context.close();
  });
});
