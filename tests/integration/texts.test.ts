/**
 * Texts as ICU messages, on fixture sites: plural forms and decimals per language in built pages,
 * fact references that follow the data, and the build's message checks with file:line.
 * Expectations come from the content (text tables, data) and Intl, never from literals.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { parseHtml } from '../helpers/dom.ts';
import { copyContent, htmlFiles, read, ROOT, runCli, SHIPPED_CONTENT, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';

type Tree = Record<string, unknown>;
const loadYaml = (dir: string, file: string) => parseYaml(readFileSync(path.join(dir, file), 'utf8')) as unknown;
const site = loadYaml(SHIPPED_CONTENT, 'site.yaml') as { languages: string[]; defaultLanguage: string };
const tableOf = (dir: string, lang: string) => loadYaml(dir, `i18n/${lang}.yaml`) as Tree;
const textOf = (table: Tree, key: string) => key.split('.').reduce<unknown>((t, k) => (t as Tree)[k], table) as string;
const localeOf = (table: Tree) => textOf(table, 'lang.locale');
const homeFile = (lang: string) => (lang === site.defaultLanguage ? 'index.html' : `${lang}.html`);
const pageFile = (lang: string, p: string) => (lang === site.defaultLanguage ? `${p}.html` : `${lang}/${p}.html`);
/** A message formatted by intl-messageformat directly, with fact references given as plain values. */
function expected(message: string, locale: string, args: Record<string, string | number>, facts: Record<string, string | number> = {}): string {
  let source = message;
  const values: Record<string, string | number> = { ...args };
  Object.entries(facts).forEach(([ref, value], i) => {
    source = source.split(`{${ref}`).join(`{f${i}`);
    values[`f${i}`] = value;
  });
  return String(new IntlMessageFormat(source, locale, undefined, { ignoreTag: true }).format(values));
}
/**
 * The texts of the elements `selector` picks, white space collapsed as HTML collapses it: a no-break
 * space (a number and its unit, "3\u00a0часа") is kept, so the page must show the message's own.
 */
const textContent = (html: string, selector: string) => [...parseHtml(html).querySelectorAll(selector)].map((e) => (e.textContent ?? '').replace(/[ \t\n\r\f]+/g, ' ').trim());

/** Make the first `n` shipped reviews real (not samples) with the given ratings. */
function realReviews(dir: string, ratings: number[]): void {
  const reviews = (loadYaml(dir, 'data/reviews.yaml') as Tree[]).slice(0, ratings.length).map((r, i) => {
    const { sample: _sample, ...rest } = r;
    return { ...rest, rating: ratings[i] };
  });
  writeFileSync(path.join(dir, 'data/reviews.yaml'), stringify(reviews));
}
function setBooking(dir: string, field: string, value: number): void {
  const file = path.join(dir, 'data/booking.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(new RegExp(`^${field}: .*$`, 'm'), `${field}: ${value}`));
}

describe('[R-VIS-6] plural forms and decimals per language', () => {
  // Two builds cover the plural categories that differ between the languages (1, 3 and 5 in Russian).
  const cases = [
    { ratings: [5], hours: 5 },
    { ratings: [5, 4, 5], hours: 1 },
  ];
  const outs: Out[] = [];
  beforeAll(async () => {
    for (const c of cases) {
      const dir = copyContent(SHIPPED_CONTENT);
      realReviews(dir, c.ratings);
      setBooking(dir, 'minAdvanceHours', c.hours);
      outs.push((await renderSite(dir)).out);
    }
  });

  for (const lang of site.languages) {
    it(`[R-VIS-6] ${lang}: review count and advance hours follow ${lang}'s plural rules; the rating is a locale decimal`, () => {
      const table = tableOf(SHIPPED_CONTENT, lang);
      const locale = localeOf(table);
      const plural = new Intl.PluralRules(locale);
      cases.forEach((c, i) => {
        const count = c.ratings.length;
        const rating = Math.round((c.ratings.reduce((a, b) => a + b, 0) / count) * 10) / 10;
        const home = read(outs[i]!, homeFile(lang));
        const aggregate = expected(textOf(table, 'reviews.aggregate'), locale, { rating, count });
        expect(textContent(home, 'p.lead'), `${lang} ${count} reviews (${plural.select(count)})`).toContain(aggregate);
        // The rating is written as the language writes decimals ("4,7" in es, ru, el, fr).
        if (rating % 1) expect(aggregate).toContain(new Intl.NumberFormat(locale).format(rating));
        const rules = read(outs[i]!, pageFile(lang, 'booking'));
        const advance = expected(textOf(table, 'rules.advance'), locale, {}, { 'booking:minAdvanceHours': c.hours });
        expect(textContent(rules, 'li'), `${lang} ${c.hours} hours (${plural.select(c.hours)})`).toContain(advance);
        // Client texts (booking validation) go through the same formatter.
        const doc = parseHtml(rules);
        const data = JSON.parse(doc.querySelector('#site-data')!.textContent!) as { phone: string };
        const texts = JSON.parse(doc.querySelector('form[data-booking]')!.getAttribute('data-texts')!) as Record<string, string>;
        const tooSoon = expected(textOf(table, 'booking.error.tooSoon'), locale, { hours: c.hours, phone: data.phone }, { 'booking:minAdvanceHours': c.hours });
        expect(texts.tooSoon).toBe(tooSoon);
      });
    });
  }

  /** The source of a plural message's branch for `category` (`one {# review}` → `# review`). */
  const branch = (message: string, category: string) => new RegExp(`\\b${category} \\{([^{}]*)\\}`).exec(message)?.[1];
  it('[R-VIS-6] a language whose plural categories differ for 1, 3 and 5 shows different words for them', () => {
    // Wherever the content's plural message has a branch per category, the build picks it.
    for (const lang of site.languages) {
      const table = tableOf(SHIPPED_CONTENT, lang);
      const locale = localeOf(table);
      const forms = [1, 3, 5].map((n) => expected(textOf(table, 'reviews.aggregate'), locale, { rating: 5, count: n }).replace(/\d/g, '#'));
      const categories = [1, 3, 5].map((n) => new Intl.PluralRules(locale).select(n));
      const message = textOf(table, 'reviews.aggregate');
      for (let a = 0; a < 3; a++)
        for (let b = a + 1; b < 3; b++)
          // Only where the message words the two categories differently (French "1 avis", "3 avis" may not).
          if (categories[a] !== categories[b] && branch(message, categories[a]!) !== undefined && branch(message, categories[b]!) !== undefined && branch(message, categories[a]!) !== branch(message, categories[b]!))
            expect(forms[a], `${lang}: ${categories[a]} vs ${categories[b]}`).not.toBe(forms[b]);
    }
  });
});

describe('[R-VIS-6] the build checks every message with file:line', () => {
  /** The line of `key: ` (last segment) in a text table, 1-based. */
  const lineOf = (dir: string, lang: string, leaf: string, after = '') => {
    const lines = readFileSync(path.join(dir, `i18n/${lang}.yaml`), 'utf8').split('\n');
    const from = after ? lines.findIndex((l) => l.trim() === `${after}:`) : 0;
    return lines.findIndex((l, i) => i >= from && l.trimStart().startsWith(`${leaf}:`)) + 1;
  };
  const replaceValue = (dir: string, lang: string, leaf: string, value: string, after = '') => {
    const file = path.join(dir, `i18n/${lang}.yaml`);
    const lines = readFileSync(file, 'utf8').split('\n');
    const i = lineOf(dir, lang, leaf, after) - 1;
    lines[i] = `${lines[i]!.slice(0, lines[i]!.indexOf(`${leaf}:`))}${leaf}: ${JSON.stringify(value)}`;
    writeFileSync(file, lines.join('\n'));
  };
  const other = site.languages.find((l) => l !== site.defaultLanguage)!;
  let stderr = '';
  let code = 0;
  let dir = '';
  beforeAll(async () => {
    dir = copyContent();
    const rates = loadYaml(dir, 'data/rates.yaml') as { tiers: { id: string; price: number }[] };
    replaceValue(dir, site.defaultLanguage, 'logoLabel', '{brand, home'); // syntax: unclosed argument
    replaceValue(dir, other, 'counter', '{n, plural, one {# photo}} / {total}'); // plural without other
    replaceValue(dir, other, 'rating', '{stars} / 5'); // an argument the default language's message does not use
    replaceValue(dir, other, 'show', `€${rates.tiers[0]!.price} {title}`); // a literal price
    replaceValue(dir, site.defaultLanguage, 'madeWith', 'from {price:no-such-rate}'); // an unknown fact
    const r = await runCli(['build', '--content', dir, '--out', path.join(dir, '..', 'dist')]);
    ({ stderr, code } = r);
  });
  const at = (lang: string, leaf: string) => new RegExp(`i18n/${lang}\\.yaml:${lineOf(dir, lang, leaf)}:\\d+: error \\[message\\] [\\w.]*${leaf}: `);

  it('[R-VIS-6] fails the build (all message errors reported in one run)', () => {
    expect(code).not.toBe(0);
  });
  it('[R-VIS-6] a syntax error names file, line and key', () => {
    expect(stderr).toMatch(at(site.defaultLanguage, 'logoLabel'));
    expect(stderr).toMatch(/logoLabel: ICU message syntax error/);
  });
  it('[R-VIS-6] a plural without `other`', () => {
    expect(stderr).toMatch(at(other, 'counter'));
    expect(stderr).toMatch(/counter: ICU message syntax error: a plural or select needs an `other/);
  });
  it('[R-VIS-6] an argument the default language does not pass', () => {
    expect(stderr).toMatch(at(other, 'rating'));
    expect(stderr).toMatch(/rating: uses \{stars\}, which the \w+ message does not/);
  });
  it('[R-OPS-1] a literal price points to the reference syntax', () => {
    expect(stderr).toMatch(at(other, 'show'));
    expect(stderr).toMatch(/show: states a price literally \("€\d+"\): reference the rate instead, e\.g\. \{price:<rate id>\}/);
  });
  it('[R-OPS-1] an unknown fact lists the known ones', () => {
    expect(stderr).toMatch(at(site.defaultLanguage, 'madeWith'));
    expect(stderr).toMatch(/madeWith: unknown fact \{price:no-such-rate\}: known price facts: \{price:/);
  });
});

describe('[R-OPS-1][R-UI-20] a price changed in rates.yaml shows everywhere, formatted per language', () => {
  const rates = loadYaml(SHIPPED_CONTENT, 'data/rates.yaml') as { tiers: { id: string; price: number }[]; extras: { price: number }[] };
  const currency = (loadYaml(SHIPPED_CONTENT, 'site.yaml') as { currency: string }).currency;
  const defaultTable = readFileSync(path.join(SHIPPED_CONTENT, `i18n/${site.defaultLanguage}.yaml`), 'utf8');
  // A tier the texts reference whose price no other rate shares, so "none the old" is decidable.
  const all = [...rates.tiers, ...rates.extras].map((r) => r.price);
  const tier = rates.tiers.find((t) => defaultTable.includes(`{price:${t.id}}`) && all.filter((p) => p === t.price).length === 1)!;
  const oldPrice = tier.price;
  const newPrice = oldPrice + 37;
  const money = (locale: string, n: number) => new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 }).format(n);
  let out: Out = { memory: new Map() };
  beforeAll(async () => {
    const dir = copyContent(SHIPPED_CONTENT);
    const file = path.join(dir, 'data/rates.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(new RegExp(`(id: ${tier.id},[^}]*price: )${oldPrice}\\b`), `$1${newPrice}`));
    ({ out } = await renderSite(dir));
  });

  for (const lang of site.languages) {
    it(`[R-OPS-1][R-UI-20] ${lang}: the new price in the language's format on every page that states it, the old one nowhere`, () => {
      const locale = localeOf(tableOf(SHIPPED_CONTENT, lang));
      const prefix = lang === site.defaultLanguage ? '' : `${lang}/`;
      const pages = htmlFiles(out).filter((f) => (lang === site.defaultLanguage ? !site.languages.some((l) => f.startsWith(`${l}/`) || f === `${l}.html`) : f.startsWith(prefix) || f === `${lang}.html`));
      const oldText = money(locale, oldPrice);
      const stale = pages.filter((f) => read(out, f).includes(oldText));
      expect(stale, `${oldText} still on`).toEqual([]);
      // The rates page shows it, and a page description (a text with a {price:…} reference) states it.
      expect(parseHtml(read(out, pageFile(lang, 'rates'))).body.textContent).toContain(money(locale, newPrice));
      const newText = money(locale, newPrice);
      const described = pages.filter((f) => read(out, f).includes(newText) && (parseHtml(read(out, f)).querySelector('meta[name="description"]')?.getAttribute('content') ?? '').includes(newText));
      expect(described.length, `a page description states ${money(locale, newPrice)}`).toBeGreaterThan(0);
    });
  }
});

describe('[R-VIS-6] plural and select arguments are passed by the code that shows the text', () => {
  // Where a call names its key literally (`t('reviews.aggregate', { rating, count })`), every
  // argument a plural or select of that message switches on must be among the arguments passed.
  const sources = ['templates', 'src/render', 'src/output'].flatMap((d) => sourceFiles(path.join(ROOT, d)));
  const calls = new Map<string, Set<string>[]>();
  for (const file of sources) {
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\bt\(\s*'([\w.-]+)'\s*(,\s*\{)?/g)) {
      const passed = new Set(m[2] ? topLevelKeys(code, m.index + m[0].length) : []);
      calls.set(m[1]!, [...(calls.get(m[1]!) ?? []), passed]);
    }
  }
  for (const lang of site.languages) {
    it(`[R-VIS-6] ${lang}: every plural/select argument is passed where the key is used`, () => {
      const table = tableOf(SHIPPED_CONTENT, lang);
      const problems: string[] = [];
      for (const [key, sets] of calls) {
        let message: string;
        try {
          message = textOf(table, key);
        } catch {
          continue;
        }
        if (typeof message !== 'string') continue;
        for (const m of message.matchAll(/\{\s*(\w+)\s*,\s*(?:plural|select|selectordinal)\s*,/g))
          for (const passed of sets) if (!passed.has(m[1]!)) problems.push(`${key}: {${m[1]}} not passed (passes ${[...passed].join(', ') || 'nothing'})`);
      }
      expect(problems).toEqual([]);
      expect(calls.size).toBeGreaterThan(10); // the scan found the calls
    });
  }
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** Property names at depth 0 of the object literal whose body starts at `from` (just after `{`). */
function topLevelKeys(code: string, from: number): string[] {
  const keys: string[] = [];
  let depth = 0;
  let part = '';
  for (let i = from; i < code.length; i++) {
    const c = code[i]!;
    if (depth === 0 && (c === ',' || c === '}')) {
      const key = /^\s*(\w+)\s*(?::|$)/.exec(part)?.[1];
      if (key) keys.push(key);
      if (c === '}') break;
      part = '';
      continue;
    }
    if ('({['.includes(c)) depth++;
    else if (')}]'.includes(c)) depth--;
    if (depth === 0) part += c;
  }
  return keys;
}
