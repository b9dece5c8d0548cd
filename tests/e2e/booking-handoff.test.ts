/**
 * The booking form and its WhatsApp message as a discerning client meets them (issue 22,
 * "Defects"): the city is chosen explicitly, a city that is coming soon says so, and the message
 * reads in the client's own voice ("mi hotel") with the date written as the message language
 * writes dates. Expected values come from the content under test (cities, booking, cta and the
 * message language's texts).
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled, urlOf } from '../helpers/serve.ts';
import { shipped, yaml } from '../helpers/content.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
/** The published languages (draft ones are not in site.yaml languages). */
const languages = c.languages;
const cta = yaml('data/cta.yaml') as { messageLanguage: string; messages: { fields: Record<string, string> } };
const message = c.texts(cta.messageLanguage);
const bookingPath = c.pages.find((p: { id: string }) => p.id === 'booking')!.path as string;
const url = (lang: string, query = '') => `${urlOf(c.file(bookingPath, lang))}${query}`;
const active = (c.cities as { id: string; status: string }[]).find((x) => x.status === 'active')!;
const upcoming = (c.cities as { id: string; status: string }[]).find((x) => x.status === 'upcoming');

/** Fill every required field for a valid request (a date far ahead), with this place. */
async function fill(page: Page, location: string): Promise<void> {
  await page.locator('#booking-name').fill('Ana');
  await page.locator('#booking-date').fill('2099-06-01');
  await page.locator('#booking-time').fill('21:30');
  await page.locator('#booking-duration').selectOption(c.booking.durations[0].id);
  await page.locator('#booking-location').selectOption(location);
}

/** Submit and read the message of the WhatsApp tab the form opens. */
async function send(context: BrowserContext, page: Page): Promise<string[]> {
  const [popup] = await Promise.all([context.waitForEvent('page'), page.locator('form[data-booking] button[type="submit"]').click()]);
  await popup.waitForURL(/^https:\/\/wa\.me\//);
  const text = decodeURIComponent(new URL(popup.url()).searchParams.get('text') ?? '');
  await popup.close();
  return text.split('\n');
}

describe.skipIf(!hasChrome)('booking form and WhatsApp message (issue 22)', () => {
  const env = browserOnSite();

  it('[R-BOOK-3] the message names each place in the client\'s own words and writes the date in the message language', async () => {
    const context = await offlineContext(env.browser);
    const page = await context.newPage();
    const line = (field: string, value: string) => cta.messages.fields[field]!.replace('{value}', value);
    const date = new Intl.DateTimeFormat(message['lang.locale'], { dateStyle: 'full', timeZone: 'UTC' }).format(Date.UTC(2099, 5, 1));
    for (const location of c.booking.locations as string[]) {
      await page.goto(`${env.base}${url(c.defaultLanguage, `?city=${active.id}`)}`);
      await settled(page);
      await fill(page, location);
      const lines = await send(context, page);
      expect(lines, location).toContain(line('location', message[`booking.messageLocation.${location}`]!));
      expect(lines, location).toContain(line('date', date));
      expect(lines.join('\n'), 'no date as the form stores it').not.toContain('2099-06-01');
    }
    await context.close();
  });

  it('[R-UI-11] without ?city= nothing is chosen for the visitor: sending asks for the city first', async () => {
    const context = await offlineContext(env.browser);
    const page = await context.newPage();
    await page.goto(`${env.base}${url(c.defaultLanguage)}`);
    await settled(page);
    const city = page.locator('#booking-city');
    expect(await city.inputValue()).toBe('');
    await fill(page, c.booking.locations[0]);
    await page.locator('form[data-booking] button[type="submit"]').click();
    expect(await city.getAttribute('aria-invalid')).toBe('true');
    expect(await city.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('#booking-city-error').innerText()).toBe(c.texts(c.defaultLanguage)['booking.error.required']);
    // Its time-zone line still describes it, beside the error.
    expect((await city.getAttribute('aria-describedby'))!.split(' ')).toEqual(expect.arrayContaining(['booking-timezone', 'booking-city-error']));
    await city.selectOption(active.id);
    const lines = await send(context, page);
    expect(lines[0]).toContain(c.texts(cta.messageLanguage)[`city.${active.id}.name`]);
    await context.close();
  });

  it.skipIf(!upcoming)('[R-OPS-3][R-UI-13] /booking?city=<a city coming soon> says it is coming soon; an open city does not', async () => {
    const context = await offlineContext(env.browser);
    const page = await context.newPage();
    for (const lang of languages) {
      const texts = c.texts(lang);
      await page.goto(`${env.base}${url(lang, `?city=${upcoming!.id}`)}`);
      await settled(page);
      expect(await page.locator('#booking-city').inputValue(), lang).toBe(upcoming!.id);
      const note = page.locator(`[data-upcoming="${upcoming!.id}"]`);
      expect(await note.isVisible(), `${lang}: the note shows`).toBe(true);
      expect(await note.innerText(), lang).toContain(texts[`city.${upcoming!.id}.name`]);
      expect(await page.locator('#booking-city option:checked').innerText(), lang).not.toBe(texts[`city.${upcoming!.id}.name`]);
      await page.locator('#booking-city').selectOption(active.id);
      expect(await note.isVisible(), `${lang}: gone once an open city is chosen`).toBe(false);
    }
    await page.goto(`${env.base}${url(c.defaultLanguage, `?city=${active.id}`)}`);
    await settled(page);
    expect(await page.locator('[data-upcoming]:visible').count()).toBe(0);
    await context.close();
  });
});
