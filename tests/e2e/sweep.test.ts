/**
 * Every page of the shipped site in Chromium, once each, served with its host's headers (CSP
 * included, as `site serve` does): it loads and starts its script without a CSP violation, console
 * error or page error, and (redirect stubs aside, which move on at once) it is no wider than the
 * screen at 320, 390, 768 and 1280 px. One sweep for both: each page load is the costly part, and
 * a test loads its pages a few tabs at a time (inTabs), as a load mostly waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE, sharedBrowser, tabPool } from '../helpers/browser.ts';
import { inTabs, MAX_PAGES_PER_TEST, pageGroups, siteLanguages, urlPathOf } from '../helpers/groups.ts';
import { settled } from '../helpers/serve.ts';
import { shippedOut, siteWithHeadersUrl } from '../helpers/shared.ts';
import { htmlFiles, read } from '../helpers/site.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const WIDTHS = [320, 390, 768, 1280];
const out = shippedOut();
const groups = pageGroups(out);
/** Redirect stubs forward at once (meta refresh): checked for errors, not measured. */
const isStub = (file: string) => read(out, file).includes('http-equiv="refresh"');

describe.skipIf(!hasChrome)('[R-SAFE-7][R-VIS-1] every page in Chromium with the headers applied', () => {
  const shared = sharedBrowser();
  const base = siteWithHeadersUrl();
  let context: BrowserContext;
  /** Where each tab reports its errors: the list of the test using it. */
  const problemsOf = new Map<Page, string[]>();
  // The file's tabs, reused from test to test (tabPool).
  const tabs = tabPool(
    () => context,
    async (page) => {
      const report = (text: string) => problemsOf.get(page)!.push(`${page.url()}: ${text}`);
      page.on('console', (m) => {
        if (m.type() === 'error') report(m.text());
      });
      page.on('pageerror', (e) => report(e.message));
      page.on('request', (r) => {
        if (!/^(https?:\/\/127\.0\.0\.1[:/]|data:|blob:)/.test(r.url())) report(`asked another host before any consent: ${r.url()}`);
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
      });
    },
  );
  beforeAll(async () => {
    // No route answers requests to other hosts (the browser resolves none, BROWSER_ARGS): with no
    // consent given a page asks nothing of them, and a route would stop every request of every page
    // on its way (+10-15 % of the browser's CPU in this sweep).
    context = await shared.browser.newContext({ viewport: { width: 390, height: 844 } });
  });
  afterAll(() => tabs.close());

  it('[R-SAFE-7][R-VIS-1] the sweep covers every page and every language, in groups of at most MAX_PAGES_PER_TEST', () => {
    expect(groups.flatMap((g) => g.files).sort()).toEqual(htmlFiles(out).filter((f) => !f.startsWith('s/')).sort());
    for (const g of groups) expect(g.files.length, g.name).toBeLessThanOrEqual(MAX_PAGES_PER_TEST);
    const { languages, defaultLanguage } = siteLanguages();
    const measured = groups.flatMap((g) => g.files).filter((f) => !isStub(f));
    const langOf = (f: string) => languages.find((l) => l !== defaultLanguage && (f.startsWith(`${l}/`) || f === `${l}.html`)) ?? defaultLanguage;
    expect(new Set(measured.map(langOf))).toEqual(new Set(languages));
  });

  it.each(groups)('[R-SAFE-7][R-VIS-1] $name: no CSP violation, console or page error; no overflow at 320, 390, 768 and 1280 px', async ({ files }) => {
    const problems: string[] = [];
    // The group's pages a few at a time, each tab loading one page after another (TABS_PER_TEST).
    const openTab = async () => {
      const page = await tabs.take();
      problemsOf.set(page, problems);
      return page;
    };
    await inTabs(files, openTab, async (f, page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const res = await page.goto(`${base}${urlPathOf(f)}`);
      expect(res!.headers()['content-security-policy'], f).toContain("script-src 'self'");
      // The client's second start-up step runs after the first paint: let it run here too, so an
      // error in it is caught on this page.
      await settled(page);
      if (isStub(f)) return;
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        // The page as a whole, then text that leaves its own card (the page may still fit).
        const found = await page.evaluate(() => {
          const found: string[] = [];
          const doc = document.documentElement;
          const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
          if (doc.scrollWidth > doc.clientWidth) {
            const wide = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1 && el.getClientRects().length);
            found.push(`page is ${doc.scrollWidth} px wide: ${wide.slice(-3).map(name).join(', ')}`);
          }
          for (const card of document.querySelectorAll('.card')) {
            const box = card.getBoundingClientRect();
            if (!box.width) continue;
            const leaving = [...card.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > box.right + 1);
            if (leaving.length) found.push(`leaves its card: ${name(leaving[leaving.length - 1]!)}`);
          }
          return found;
        });
        for (const p of found) problems.push(`${urlPathOf(f)} at ${width}px: ${p}`);
      }
    }, async (page) => tabs.give(page));
    expect(problems).toEqual([]);
  });
});
