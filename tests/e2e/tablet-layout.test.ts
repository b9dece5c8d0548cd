/**
 * Layout at every width, in every language of the shipped site; pages, languages, units and texts
 * come from the content under test. Each page is loaded once (the home page twice) and every check
 * of it runs at each width it names (the checks used to load the home page nine times a language).
 *
 * Defects a design review found at tablet width (768 px), checked again at 390 and 1280 px so
 * that the fixes do not move the defects there: quantities ("3 часа", "2 000 €") never break
 * inside, a service card's price line never splits a price from its unit, the call to action's
 * text, the venues, the footer's brand and the about page's portrait get room, and no card grid
 * leaves one card alone in its last row. Icons are drawn, not arrow characters.
 *
 * Defects a reviewer found at phone widths (issue 22; the skip links are layout-defects.test.ts's):
 * the contact page's opening hours stay on one line, a page's photo keeps a section's spacing
 * above the next divider, the health card's button and the phone bar's WhatsApp button take one
 * line at 320 px, and a blog category title keeps its "·" with the word before it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromePath, NO_CHROME_MESSAGE, tabPool } from '../helpers/browser.ts';
import { browserOnSite, offlineContext, settled, urlOf } from '../helpers/serve.ts';
import { shipped } from '../helpers/content.ts';
import { shippedOut } from '../helpers/shared.ts';
import { htmlFiles, read, ROOT } from '../helpers/site.ts';
import { parseHtml } from '../helpers/dom.ts';

const hasChrome = Boolean(chromePath());
if (!hasChrome) console.warn(NO_CHROME_MESSAGE);

const c = shipped();
const languages = c.languages;
const url = (routePath: string, lang: string) => urlOf(c.file(routePath, lang));
const TABLET = 768;
const WIDTHS = [390, TABLET, 1280];

/**
 * The units the language writes after a number, read from its text table: the word after "#" in a
 * plural branch ("{# часа}") and the word after the figure of a duration ("3–4 ч").
 */
function unitsOf(lang: string): string[] {
  const texts = c.texts(lang);
  const units = new Set<string>();
  for (const [key, text] of Object.entries(texts)) {
    for (const m of text.matchAll(/#[\s\u00a0]+([\p{L}'’]+)/gu)) units.add(m[1]!);
    if (key.startsWith('duration.')) for (const m of text.matchAll(/\d[\s\u00a0]+([\p{L}]+)/gu)) units.add(m[1]!);
  }
  return [...units];
}

/**
 * Every place in the page's main content where a number meets its unit (or a price its currency sign) and the two
 * land on different lines: "3 | часа", "2 000 | €". Visually hidden text is skipped.
 */
async function brokenQuantities(page: Page, units: string[]): Promise<string[]> {
  return page.evaluate((units) => {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const unit = new RegExp(`\\d([\\s\\u00a0\\u202f]+)(?:${units.map(escape).join('|')}|€)(?![\\p{L}])|€([\\s\\u00a0\\u202f]+)\\d`, 'gu');
    const top = (node: Text, i: number) => {
      const r = document.createRange();
      r.setStart(node, i);
      r.setEnd(node, i + 1);
      const rect = [...r.getClientRects()].find((x) => x.width > 0);
      return rect ? Math.round(rect.top + rect.height / 2) : undefined;
    };
    const out: string[] = [];
    const walker = document.createTreeWalker(document.querySelector('main') ?? document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      if (n.parentElement!.closest('.visually-hidden, [hidden], script, style')) continue;
      for (const m of n.data.matchAll(unit)) {
        const start = m.index!;
        const end = start + m[0].length - 1;
        const a = top(n, start);
        const b = top(n, end);
        if (a !== undefined && b !== undefined && Math.abs(a - b) > 4) out.push(`"${m[0]}" in "${n.data.trim().slice(0, 80)}"`);
      }
    }
    return out;
  }, units);
}

/** The lines an element's visible text takes, as text. */
async function linesOf(page: Page, selector: string): Promise<string[][]> {
  return page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const lines = new Map<number, string>();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
        if (n.parentElement!.closest('.visually-hidden')) continue;
        for (let i = 0; i < n.length; i++) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const rect = [...r.getClientRects()].find((x) => x.width > 0);
          if (!rect) continue;
          const y = [...lines.keys()].find((k) => Math.abs(k - rect.top) < 6) ?? Math.round(rect.top);
          lines.set(y, (lines.get(y) ?? '') + n.data[i]);
        }
      }
      return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text.replace(/[\s\u00a0]+/g, ' ').trim());
    }),
  );
}

/** Every card grid whose last row holds one card beside fuller rows, that card not spanning the row. */
async function orphanRows(page: Page): Promise<string[]> {
  return page.locator('main ul.cards').evaluateAll((grids) =>
    grids.flatMap((grid) => {
      const width = grid.getBoundingClientRect().width;
      const cards = [...grid.children].map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0);
      const rows = new Map<number, DOMRect[]>();
      for (const r of cards) rows.set(Math.round(r.top), [...(rows.get(Math.round(r.top)) ?? []), r]);
      const counts = [...rows.values()];
      const widest = Math.max(...counts.map((row) => row.length));
      return counts
        .filter((row) => widest > 1 && row.length === 1 && row[0]!.width < width - 2)
        .map((row) => `${grid.className}: a card alone in a row (${Math.round(row[0]!.width)} of ${Math.round(width)} px; rows of ${counts.map((r) => r.length).join(', ')})`);
    }),
  );
}

/** A page's checks at one width: the problems found (an `expect` for what must hold to check at all). */
type Check = { ids: string; what: string; widths: number[]; run(page: Page, at: string, width: number, expect: ExpectStatic): Promise<string[]> };

const tierOf = (id: string) => c.rates.tiers.find((t: { id: string }) => t.id === id);

/** Where quantities and prices show: home, rates, booking, contact, about, the service and city pages. */
const quantityRoutes = ['/', ...['rates', 'booking', 'contact', 'about', 'dinner-date', 'travel-companion'].map((id) => c.pagePath(id)), ...c.cities.map((city: { path: string }) => city.path)];
/** The service cards a page shows: all of them on the home page, its own on a service page. */
const cardPages = [
  { routePath: '/', cards: c.services.cards },
  ...c.services.cards.filter((card: { page?: string }) => card.page).map((card: { page: string }) => ({ routePath: c.pagePath(card.page), cards: [card] })),
];
const gridPages = ['/', c.pagePath('contact'), c.blog.path, ...c.cities.map((city: { path: string }) => city.path)];

/** The checks of `routePath` in `lang`: each page is loaded once and measured at each width its checks name. */
function checksOf(routePath: string, lang: string): Check[] {
  const checks: Check[] = [];
  if (quantityRoutes.includes(routePath)) {
    const units = unitsOf(lang);
    checks.push({
      ids: '[R-VIS-1][R-UI-20]',
      what: 'no number is parted from its unit, nor a price from its currency sign, at 320, 390, 768 and 1280 px',
      widths: [320, ...WIDTHS],
      async run(page, at, _width, expect) {
        expect(units.length, `${lang}: units read from the text table`).toBeGreaterThan(0);
        return (await brokenQuantities(page, units)).map((p) => `${at}: ${p}`);
      },
    });
  }
  // The amount keeps its line; the duration (its unit) is whole on one line; the line with the
  // amount never ends with a "·" whose continuation went to the next line ("€2,000 · On request · / per day").
  const cards = cardPages.find((p) => p.routePath === routePath)?.cards;
  if (cards) {
    const durations = cards.map((card: { tier: string }) => c.texts(lang)[`duration.${tierOf(card.tier).duration}`]!.replace(/\u00a0/g, ' '));
    checks.push({
      ids: '[R-UI-4][R-BRAND-2]',
      what: "a service card's price line never splits a price from its unit, at 320, 390, 768 and 1280 px",
      widths: [320, ...WIDTHS],
      async run(page, at, _width, expect) {
        const problems: string[] = [];
        const amounts = await linesOf(page, 'main .price-line .price-amount');
        const lines = await linesOf(page, 'main .price-line');
        expect(lines.length, `${routePath}: one price line a card`).toBe(cards.length);
        amounts.forEach((a) => a.length !== 1 && problems.push(`${at}: the amount takes ${a.length} lines: ${JSON.stringify(a)}`));
        lines.forEach((l, i) => {
          if (/·$/.test(l[0]!) || l.some((line) => /^·/.test(line))) problems.push(`${at}: ${JSON.stringify(l)}`);
          if (!l.some((line) => line.includes(durations[i]!))) problems.push(`${at}: "${durations[i]}" is split: ${JSON.stringify(l)}`);
        });
        return problems;
      },
    });
  }
  if (routePath === '/') {
    checks.push({
      ids: '[R-UI-8][R-VIS-1]',
      what: "at 768 px the call to action's text takes most of the card's width, not a thin column beside the buttons",
      widths: [TABLET],
      async run(page, at) {
        const { card, text } = await page.locator('[data-cta]').evaluate((el) => ({
          card: el.getBoundingClientRect().width,
          text: Math.max(...[...el.querySelectorAll('.cta-primary, .cta-secondary')].map((p) => p.getBoundingClientRect().width)),
        }));
        return text < card * 0.6 ? [`${at}: text ${Math.round(text)} px wide in a ${Math.round(card)} px card`] : [];
      },
    });
    checks.push({
      ids: '[R-UI-16]',
      what: "at 768 px the footer's brand column takes at least half of the footer's width",
      widths: [TABLET],
      async run(page, at) {
        const { grid, brand } = await page.locator('.footer-grid').evaluate((el) => ({ grid: el.getBoundingClientRect().width, brand: el.firstElementChild!.getBoundingClientRect().width }));
        return brand < grid / 2 ? [`${at}: brand column ${Math.round(brand)} of ${Math.round(grid)} px`] : [];
      },
    });
  }
  if (routePath === '/' || routePath === c.pagePath('contact')) {
    checks.push({
      ids: '[R-UI-7][R-VIS-1]',
      what: 'venues: each card has room at 768 px, and an e-mail address stays whole on one line at 390, 768 and 1280 px',
      widths: WIDTHS,
      async run(page, at, width, expect) {
        const problems: string[] = [];
        const emails = await linesOf(page, 'main .venue a[href^="mailto:"]');
        for (const e of emails) if (e.length !== 1) problems.push(`${at}: the e-mail breaks: ${JSON.stringify(e)}`);
        if (width !== TABLET) return problems;
        const widths = await page.locator('main .venue').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
        expect(widths.length).toBe(c.venues.length);
        // 20rem: a card as wide as a phone's, no narrower (three columns left 225 px).
        for (const w of widths) if (w < 320) problems.push(`${at}: a venue card ${Math.round(w)} px wide at 768 px`);
        return problems;
      },
    });
  }
  if (gridPages.includes(routePath)) {
    checks.push({
      ids: '[R-UI-4][R-UI-7][R-UI-15]',
      what: 'no card grid leaves one card alone in its last row beside fuller rows, at 390, 768 and 1280 px',
      widths: WIDTHS,
      async run(page, at) {
        return (await orphanRows(page)).map((p) => `${at}: ${p}`);
      },
    });
  }
  if (routePath === c.pagePath('about')) {
    checks.push({
      ids: '[R-UI-9]',
      what: "the about page's portrait is at most 60 % of a 768 x 1024 screen's height, and no taller at 1280 px",
      widths: [TABLET, 1280],
      async run(page, at) {
        const h = await page.locator('main .about-portrait img').evaluate((img) => img.getBoundingClientRect().height);
        return h > 1024 * 0.6 ? [`${at}: the portrait is ${Math.round(h)} px tall`] : [];
      },
    });
  }
  if (routePath === c.pagePath('contact')) {
    checks.push({
      ids: '[R-UI-12]',
      what: 'each opening-hours value stays on one line at 320, 390, 768 and 1280 px',
      widths: [320, ...WIDTHS],
      async run(page, at, _width, expect) {
        const values = await page.locator('#availability dd').evaluateAll((dds) =>
          dds.map((dd) => ({ text: dd.textContent!.trim(), height: dd.getBoundingClientRect().height, width: dd.getBoundingClientRect().width, line: parseFloat(getComputedStyle(dd).lineHeight) })),
        );
        expect(values.length, `${lang}: the hours are listed`).toBeGreaterThan(0);
        return values.filter((v) => v.height > v.line * 1.5).map((v) => `${at}: "${v.text}" wraps (${Math.round(v.width)} px wide, ${Math.round(v.height)} px tall)`);
      },
    });
  }
  if (photoPages.includes(routePath)) {
    checks.push({
      ids: '[R-UI-9][R-UI-13]',
      what: "the photo keeps a section's spacing above the next divider at every width",
      widths: [320, ...WIDTHS],
      async run(page, at) {
        const m = await page.evaluate(() => {
          const img = document.querySelector('main picture img')!;
          const next = [...document.querySelectorAll('main section.section')].find((s) => s.getBoundingClientRect().top >= img.getBoundingClientRect().top)!;
          return { gap: next.getBoundingClientRect().top - img.getBoundingClientRect().bottom, padding: parseFloat(getComputedStyle(next).paddingTop) };
        });
        return m.gap < m.padding - 1 ? [`${at}: ${Math.round(m.gap)} px between the photo and the divider (the section keeps ${m.padding} px)`] : [];
      },
    });
  }
  if (routePath === '/') {
    const texts = c.texts(lang);
    checks.push({
      ids: '',
      what: "at 320 px, the health button and the phone bar's WhatsApp button each take one line",
      widths: [320],
      async run(page, at, _width, expect) {
        const problems: string[] = [];
        for (const [selector, key] of [['.health-card a.button', 'health.open'], ['.cta-bar [data-whatsapp]', 'cta.whatsapp']] as const) {
          const got = await lineBoxes(page, selector);
          expect(got.text, `${lang}: ${selector} shows ${key}`).toBe(texts[key] ?? texts['contact.whatsapp']);
          if (got.lines !== 1) problems.push(`${at}: "${got.text}" (${selector}) takes ${got.lines} lines`);
        }
        return problems;
      },
    });
  }
  const category = categoryPages(lang).find((k) => k.routePath === routePath);
  if (category) {
    checks.push({
      ids: '',
      what: 'at 320 and 390 px, a category title never starts a line with its "·", which stays with the word before it',
      widths: [320, 390],
      async run(page, at) {
        const problems: string[] = [];
        const lines = await headingLines(page);
        const heading = lines.join('');
        if (heading !== category.expected) problems.push(`${at}: the heading reads "${heading}", not "${category.expected}"`);
        if (!/\u00a0·/.test(heading)) problems.push(`${at}: no no-break space before the "·" ("${heading}")`);
        if (lines.some((l) => l.trimStart().startsWith('·'))) problems.push(`${at}: a line starts with the "·" (${JSON.stringify(lines)})`);
        return problems;
      },
    });
  }
  return checks;
}

/** Pages with a photo: the city pages that have one, and the about page. */
const photoPages = [...c.cities.filter((city: { image?: string }) => city.image).map((city: { path: string }) => city.path), c.pagePath('about')];
/** The blog category pages whose title has a "·" in `lang`, and that title. */
function categoryPages(lang: string): { routePath: string; expected: string }[] {
  const texts = c.texts(lang);
  return (c.blog.categories as string[])
    .map((id) => ({ routePath: `${c.blog.path}/category/${id}`, expected: texts['page.category.title']!.replace('{category}', texts[`blog.category.${id}`]!) }))
    .filter((k) => k.expected.includes('·'));
}

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

/** The lines of the h1's first text node, as text. */
async function headingLines(page: Page): Promise<string[]> {
  return page.locator('h1').evaluate((h1) => {
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
}

const routes = [...new Set([...quantityRoutes, ...cardPages.map((p) => p.routePath), ...gridPages, c.pagePath('about'), c.pagePath('contact'), ...photoPages])];
/**
 * At most this many checks a test (a page with more is loaded once more for the rest): the home
 * page's eight in one test took 10.6 s in a run beside other work (the CI budget is 10 s a test).
 */
const CHECKS_PER_TEST = 4;
const cases = languages.flatMap((lang: string) =>
  [...routes, ...categoryPages(lang).map((k) => k.routePath)].flatMap((routePath) => {
    const all = checksOf(routePath, lang);
    return Array.from({ length: Math.ceil(all.length / CHECKS_PER_TEST) }, (_, i) => ({ routePath, checks: all.slice(i * CHECKS_PER_TEST, (i + 1) * CHECKS_PER_TEST) }));
  }).map(({ routePath, checks }) => {
    const ids = [...new Set(checks.flatMap((k) => k.ids.match(/\[R-[A-Z]+-\d+\]/g) ?? []))].join('');
    return { lang, routePath, checks, name: `${ids} ${lang} ${routePath}: ${checks.map((k) => k.what).join('; ')}` };
  }),
);

// Each page is loaded once (at 768 px; the home page twice, CHECKS_PER_TEST) and every check of it
// runs at each width it names: the checks used to load the home page nine times a language. The
// tests run side by side, each in a tab of its own (they mostly wait on the browser).
describe.skipIf(!hasChrome).concurrent('layout at 320, 390, 768 and 1280 px, every language and page', () => {
  const env = browserOnSite();
  let context: BrowserContext;
  // The file's tabs, reused from test to test (tabPool).
  const tabs = tabPool(() => context);
  beforeAll(async () => {
    context = await offlineContext(env.browser, { width: TABLET, height: 1024, consentDeclined: `${c.site.storageKey}.consent` });
  });
  afterAll(async () => {
    await tabs.close();
    await context?.close();
  });

  it('every check has its pages, and every page at least one check', () => {
    const ids = new Set(cases.flatMap((k) => k.checks.map((check) => check.ids)));
    expect([...ids].sort()).toEqual(['', '[R-UI-12]', '[R-UI-16]', '[R-UI-4][R-BRAND-2]', '[R-UI-4][R-UI-7][R-UI-15]', '[R-UI-7][R-VIS-1]', '[R-UI-8][R-VIS-1]', '[R-UI-9]', '[R-UI-9][R-UI-13]', '[R-VIS-1][R-UI-20]']);
    expect(photoPages.length, 'pages with a photo').toBeGreaterThan(1);
    for (const k of cases) expect(k.checks.length, `${k.lang} ${k.routePath}`).toBeGreaterThan(0);
  });

  it.for(cases.map((k) => [k.name, k] as const))('%s', async ([, { lang, routePath, checks }], { expect }) => {
    const page = await tabs.take();
    const problems: string[] = [];
    await page.setViewportSize({ width: TABLET, height: 1024 });
    await page.goto(`${env.base}${url(routePath, lang)}`);
    await settled(page);
    for (const width of [320, ...WIDTHS]) {
      const due = checks.filter((k) => k.widths.includes(width));
      if (!due.length) continue;
      await page.setViewportSize({ width, height: 1024 });
      for (const check of due) problems.push(...(await check.run(page, `${lang} ${routePath} at ${width} px`, width, expect)));
    }
    tabs.give(page);
    expect(problems).toEqual([]);
  });
});

describe('[R-BRAND-1] icons are drawn (CSS or SVG), never arrow characters', () => {
  const ARROWS = /[←→↑↓↖↗↘↙⇐⇒⟵⟶›‹➔➜]/u;

  it('no page of the shipped build shows an arrow character as text', () => {
    const out = shippedOut();
    const found: string[] = [];
    for (const f of htmlFiles(out)) {
      const body = parseHtml(read(out, f)).querySelector('body');
      if (!body) continue;
      for (const el of body.querySelectorAll('script, style, template')) el.remove();
      const text = body.textContent ?? '';
      const m = ARROWS.exec(text);
      if (m) found.push(`${f}: "${text.slice(Math.max(0, m.index - 20), m.index + 20).trim()}"`);
    }
    expect(found).toEqual([]);
  });

  it('no template writes an arrow character (pagination, back links) outside comments', () => {
    const found: string[] = [];
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.tsx') ? [path.join(dir, e.name)] : []));
    for (const file of walk(path.join(ROOT, 'templates')))
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$|\/\*.*?\*\/|^\s*\*.*$/g, '');
          if (ARROWS.test(code)) found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    expect(found).toEqual([]);
  });
});
