/** No page is wider than the screen: every page in every language at four widths, in Chromium. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE, sharedBrowser } from '../helpers/browser.ts';
import { htmlFiles, read, SHIPPED_CONTENT } from '../helpers/site.ts';
import { shippedOut, siteUrl } from '../helpers/shared.ts';
import { offlineContext, urlOf } from '../helpers/serve.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const WIDTHS = [320, 390, 768, 1280];
/** Page loads per test (the suite keeps browser sweeps at 10 pages a test): each page is loaded once and measured at every width. */
const CHUNK = 10;

const site = load(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')) as { languages: string[]; defaultLanguage: string };

// The page list comes from the build itself, so the sweep follows whatever the content holds.
const out = shippedOut();
/** Pages a visitor reads: redirect stubs and the hidden /s/ forwarding pages only move on. */
const pages = htmlFiles(out).filter((f) => !f.startsWith('s/') && !read(out, f).includes('http-equiv="refresh"'));
const langOf = (f: string) => (site.languages.includes(f.split('/')[0]!) && f.includes('/') ? f.split('/')[0]! : f === `${f.split('.')[0]}.html` && site.languages.includes(f.split('.')[0]!) ? f.split('.')[0]! : site.defaultLanguage);
const groups: [string, string[]][] = [];
for (const lang of site.languages) {
  const mine = pages.filter((f) => langOf(f) === lang);
  for (let i = 0; i < mine.length; i += CHUNK) groups.push([`${lang} pages ${i + 1}-${Math.min(i + CHUNK, mine.length)} of ${mine.length}`, mine.slice(i, i + CHUNK)]);
}

describe.skipIf(!hasChrome)('[R-VIS-1] no horizontal overflow', () => {
  const shared = sharedBrowser();
  const base = siteUrl();
  let context: BrowserContext;
  beforeAll(async () => {
    context = await offlineContext(shared.browser, { width: 390 });
  });

  it('[R-VIS-1] the sweep covers every language', () => {
    expect(new Set(pages.map(langOf))).toEqual(new Set(site.languages));
  });

  it.each(groups)('[R-VIS-1] at 320, 390, 768 and 1280 px: %s', async (_name, files) => {
    const page = await context.newPage();
    const problems: string[] = [];
    for (const file of files) {
      await page.setViewportSize({ width: WIDTHS[0]!, height: 800 });
      await page.goto(`${base}${urlOf(file)}`);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        // The page as a whole, then text that leaves its own card (the page may still fit).
        const found = await page.evaluate(() => {
          const out: string[] = [];
          const doc = document.documentElement;
          const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
          if (doc.scrollWidth > doc.clientWidth) {
            const wide = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1 && el.getClientRects().length);
            out.push(`page is ${doc.scrollWidth} px wide: ${wide.slice(-3).map(name).join(', ')}`);
          }
          for (const card of document.querySelectorAll('.card')) {
            const box = card.getBoundingClientRect();
            if (!box.width) continue;
            const leaving = [...card.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > box.right + 1);
            if (leaving.length) out.push(`leaves its card: ${name(leaving[leaving.length - 1]!)}`);
          }
          return out;
        });
        for (const f of found) problems.push(`${urlOf(file)} at ${width}px: ${f}`);
      }
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});
