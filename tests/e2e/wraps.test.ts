/**
 * Labels and headings that must not wrap where a reviewer saw them wrap (issue 22 follow-up): the
 * health card's button and the phone bar's WhatsApp button stay on one line at 320 px, and a blog
 * category title keeps its "·" with the word before it (a no-break space) at 320 and 390 px. Texts,
 * languages and categories come from the content under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled, urlOf } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
const languages = c.languages;
const url = (routePath: string, lang: string) => urlOf(c.file(routePath, lang));

/** The element's own text (not its visually hidden parts) and how many line boxes it takes. */
async function lineBoxes(page: Page, selector: string): Promise<{ text: string; lines: number }> {
  return page.locator(selector).first().evaluate((el) => {
    const lines = new Set<number>();
    let text = '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement!.closest('.visually-hidden')) continue;
      text += n.textContent;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0) lines.add(Math.round(r.top));
    }
    return { text: text.trim(), lines: lines.size };
  });
}

describe.skipIf(!hasChrome)('labels and headings that keep to their line (issue 22)', () => {
  const env = browserOnSite();
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await offlineContext(env.browser, { width: 320, height: 568, consentDeclined: `${c.site.storageKey}.consent` });
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  it('at 320 px, the health button and the phone bar\'s WhatsApp button each take one line, in every language', async () => {
    const problems: string[] = [];
    for (const lang of languages) {
      const texts = c.texts(lang);
      await page.goto(`${env.base}${url('/', lang)}`);
      await settled(page);
      for (const [selector, key] of [['.health-card a.button', 'health.open'], ['.cta-bar [data-whatsapp]', 'cta.whatsapp']] as const) {
        const got = await lineBoxes(page, selector);
        // (the bar's own short label, where the content has one; the card's label otherwise)
        expect(got.text, `${lang}: ${selector} shows ${key}`).toBe(texts[key] ?? texts['contact.whatsapp']);
        if (got.lines !== 1) problems.push(`${lang}: "${got.text}" (${selector}) takes ${got.lines} lines at 320 px`);
      }
    }
    expect(problems).toEqual([]);
  });

  // One test per language: each loads every category page at two widths (all at once took 8 s idle).
  it.each(languages)('at 320 and 390 px, a category title in %s never starts a line with its "·", which stays with the word before it', async (lang) => {
    const problems: string[] = [];
    {
      const texts = c.texts(lang);
      for (const id of c.blog.categories as string[]) {
        const expected = texts['page.category.title']!.replace('{category}', texts[`blog.category.${id}`]!);
        if (!expected.includes('·')) continue;
        await page.setViewportSize({ width: 320, height: 568 });
        await page.goto(`${env.base}${url(`${c.blog.path}/category/${id}`, lang)}`);
        for (const width of [320, 390]) {
          await page.setViewportSize({ width, height: 800 });
          const lines = await page.locator('h1').evaluate((h1) => {
            const text = h1.firstChild as Text;
            const out: string[] = [];
            let top: number | undefined;
            for (let i = 0; i < text.length; i++) {
              const range = document.createRange();
              range.setStart(text, i);
              range.setEnd(text, i + 1);
              const r = [...range.getClientRects()].find((x) => x.width > 0);
              if (r && top !== undefined && Math.abs(r.top - top) > 4) out.push('');
              if (r) top = r.top;
              if (!out.length) out.push('');
              out[out.length - 1] = `${out[out.length - 1] ?? ''}${text.data[i] ?? ''}`;
            }
            return out;
          });
          const heading = lines.join('');
          if (heading !== expected) problems.push(`${lang} ${id}: the heading reads "${heading}", not "${expected}"`);
          if (!/\u00a0·/.test(heading)) problems.push(`${lang} ${id}: no no-break space before the "·" ("${heading}")`);
          if (lines.some((l) => l.trimStart().startsWith('·'))) problems.push(`${lang} ${id} at ${width}px: a line starts with the "·" (${JSON.stringify(lines)})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
