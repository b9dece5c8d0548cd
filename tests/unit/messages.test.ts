/** ICU messages: formatting per locale, fact references, the missing-key rule and the per-language cache. */
import { describe, expect, it } from 'vitest';
import { translateReferences } from '../../src/content/facts.ts';
import { collectFacts } from '../../src/content/load.ts';
import { model } from '../../templates/model/index.ts';
import { createMessages } from '../../src/content/messages.ts';
import { createTranslate } from '../../src/content/texts.ts';

// The shipped model's facts (templates/model/), from a few data values.
type Parts = Parameters<typeof collectFacts>[1];
const facts = new Map(
  Object.entries(
    collectFacts(model, {
      config: { contact: { phone: '+1 555', whatsapp: '+1 555' } },
      data: { rates: { tiers: [{ id: 'two-hours', price: 1234 }], extras: [] }, booking: { minAdvanceHours: 3, confirmationMinutes: 5 } },
      texts: {},
    } as unknown as Parts).facts,
  ),
);
const money = (locale: string, n: number) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(n);

describe('ICU messages', () => {
  it('[R-VIS-6] plural branches follow the locale (categories from Intl.PluralRules)', () => {
    const table = { n: '{count, plural, one {one:#} few {few:#} many {many:#} other {other:#}}' };
    for (const locale of ['en-GB', 'ru-RU', 'es-ES']) {
      const m = createMessages(table, locale, facts, 'EUR');
      for (const count of [1, 3, 5, 21]) expect(m.format('n', { count })).toBe(`${new Intl.PluralRules(locale).select(count)}:${new Intl.NumberFormat(locale).format(count)}`);
    }
  });

  it('[R-VIS-6] numbers and decimals are written the locale\'s way', () => {
    for (const locale of ['en-GB', 'es-ES', 'ru-RU', 'el-GR', 'fr-FR']) {
      const m = createMessages({ r: '{rating, number} / 5' }, locale, facts, 'EUR');
      expect(m.format('r', { rating: 4.9 })).toBe(`${new Intl.NumberFormat(locale).format(4.9)} / 5`);
    }
  });

  it('[R-OPS-1][R-UI-20] fact references: prices as the locale\'s currency, numbers in plurals, ids with dashes', () => {
    const table = { p: 'from {price:two-hours}', h: '{booking:minAdvanceHours, plural, one {# hour} other {# hours}} ({contact:phone})' };
    for (const locale of ['en-GB', 'es-ES']) {
      const m = createMessages(table, locale, facts, 'EUR');
      expect(m.format('p')).toBe(`from ${money(locale, 1234)}`);
      expect(m.format('h')).toBe('3 hours (+1 555)');
    }
    expect(translateReferences('{price:a-b} {price:a-b} {x}').source).toBe('{__fact0} {__fact0} {x}');
  });

  it('[R-UI-19] a missing key shows the key and is reported; a missing argument stays visible', () => {
    const missing: string[] = [];
    const t = createTranslate((k) => missing.push(k), createMessages({ 'a.b': 'Hi {name}, {count, plural, one {# day} other {# days}}' }, 'en', new Map(), 'EUR'));
    expect(t('a.b', { name: 'Ana', count: 2 })).toBe('Hi Ana, 2 days');
    expect(t('a.c')).toBe('a.c');
    expect(missing).toEqual(['a.c']);
    expect(t('a.b', { count: 1 })).toBe('Hi {name}, 1 day');
  });

  it('keeps ICU quoting: a doubled apostrophe before a brace is one apostrophe', () => {
    const m = createMessages({ q: "{n, plural, one {# hour's} other {# hours''}} notice", s: "Tonight's" }, 'en-GB', facts, 'EUR');
    expect(m.format('q', { n: 3 })).toBe("3 hours' notice");
    expect(m.format('s')).toBe("Tonight's");
  });
});
