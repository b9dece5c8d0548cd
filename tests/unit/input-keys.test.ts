/**
 * [R-INC-1] A route's key (routes/inputs.ts) holds what its page read, and no more: the data kinds it
 * read from `site.data` (noted as `DATA_READ` + kind), the facts its texts name, the data entry the
 * page was made from. A page whose reads are not known (rendered by an earlier version) is keyed on
 * everything. A small site and route table, made here; the build-level proof is
 * tests/integration/data-reads.test.ts and the random sequences of incremental-random.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Site, SiteModel } from '../../src/content/model.ts';
import { DATA_READ, FACTS_READ } from '../../src/render/reads.ts';
import { InputKeys } from '../../src/routes/inputs.ts';
import type { Route, RouteTable } from '../../src/routes/table.ts';

interface Shape {
  /** The Spanish locative of a city, listed by a fact a shared Spanish text names. */
  esIn?: string;
  /** The path of another page of the site (a city's, from its entry). */
  other?: string;
  rates?: number;
  phone?: string;
  areas?: string[];
  text?: string;
}

function keyOf(shape: Shape, reads: string[] | undefined): string {
  const { esIn = 'en Madrid', other = '/athens', rates = 250, phone = '+34 1', areas = ['a', 'b'], text = 'From {price:hour}' } = shape;
  const site = {
    config: { baseUrl: 'https://example.com' },
    languages: ['en', 'es'],
    defaultLanguage: 'en',
    texts: { en: { 'lang.locale': 'en', 'rates.from': text, 'plain.title': 'A title' }, es: { 'lang.locale': 'es', 'message.where': 'Estoy {cities:in}', 'city.madrid.in': esIn } },
    untranslated: {},
    pages: [],
    posts: [],
    redirects: [],
    data: { rates: { tiers: [{ id: 'hour', price: rates }] }, venues: [{ id: 'v', phone }], cities: [{ id: 'madrid', areas }] },
    routing: { entryPages: [], params: {} },
    facts: { 'price:hour': { kind: 'money', amount: rates }, 'cities:in': { kind: 'list', items: [['city.madrid.in']] } },
    today: '2026-11-26',
    locate: () => undefined,
  } as unknown as Site;
  const route = { kind: 'page', path: '/madrid', file: 'madrid.html', lang: 'en', key: 'madrid', template: 'city', indexable: true, origin: 'test', entry: { id: 'madrid', areas } } as unknown as Route;
  const city = { ...route, path: other, file: `${other.slice(1)}.html`, key: 'athens', entry: { id: 'athens', areas: [] } } as unknown as Route;
  const routes = { routes: [route, city], alternates: () => new Map() } as unknown as RouteTable;
  // The model shares the Spanish message text with every language's pages (as the WhatsApp message's language).
  const model = { sharedText: (key: string, lang: string) => lang === 'es' && key === 'message.where' } as unknown as SiteModel;
  return new InputKeys(site, routes, model, 'code').route(route, false, reads);
}

describe('[R-INC-1] route keys: the data a page read', () => {
  it('a page that read one data kind changes key with that kind, not with another', () => {
    const reads = ['plain.title', `${DATA_READ}rates`];
    expect(keyOf({ rates: 260 }, reads)).not.toBe(keyOf({}, reads));
    expect(keyOf({ phone: '+34 2' }, reads)).toBe(keyOf({}, reads));
  });

  it('a page that read a text naming a fact changes key with the fact, even without reading its data kind', () => {
    expect(keyOf({ rates: 260 }, ['rates.from'])).not.toBe(keyOf({}, ['rates.from']));
    // A text naming no fact: the price is none of its business.
    expect(keyOf({ rates: 260 }, ['plain.title'])).toBe(keyOf({}, ['plain.title']));
    // Reading site.facts itself: every fact.
    expect(keyOf({ rates: 260 }, ['plain.title', FACTS_READ])).not.toBe(keyOf({}, ['plain.title', FACTS_READ]));
  });

  it('a page made from a data entry changes key with its entry, though it read no data kind', () => {
    expect(keyOf({ areas: ['b', 'a'] }, ['plain.title'])).not.toBe(keyOf({}, ['plain.title']));
  });

  it("another page's path (the links every page may hold): every key changes", () => {
    expect(keyOf({ other: '/athens-new' }, ['plain.title'])).not.toBe(keyOf({}, ['plain.title']));
  });

  it("a text another language's pages share: what its list fact shows in that language changes every key", () => {
    expect(keyOf({ esIn: 'en la capital' }, ['plain.title'])).not.toBe(keyOf({}, ['plain.title']));
  });

  it('a page whose reads are not known is keyed on all the data', () => {
    expect(keyOf({ phone: '+34 2' }, undefined)).not.toBe(keyOf({}, undefined));
    expect(keyOf({ rates: 260 }, undefined)).not.toBe(keyOf({}, undefined));
  });
});
