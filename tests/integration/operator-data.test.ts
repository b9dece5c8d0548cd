/**
 * The operator's data: one source per fact (a price changed in rates.yaml shows everywhere), cities
 * as content (a new city is one entry plus its texts), references checked with file and line.
 * Fixture sites copy the content under test (SHIPPED_CONTENT) and read every expectation from it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, edit, htmlFiles, read, runCli, SHIPPED_CONTENT, tmpDir, type Out } from '../helpers/site.ts';
import { renderSite } from '../helpers/render.ts';
import { headOf, parseHtml } from '../helpers/dom.ts';

const yamlOf = <T = any>(content: string, file: string): T => parse(readFileSync(path.join(content, file), 'utf8')) as T;
const site = yamlOf<{ languages: string[]; defaultLanguage: string }>(SHIPPED_CONTENT, 'site.yaml');
const langs = site.languages;
const localize = (p: string, lang: string) => (lang === site.defaultLanguage ? p : p === '/' ? `/${lang}` : `/${lang}${p}`);
const fileOf = (p: string) => (p === '/' ? 'index.html' : `${p.slice(1)}.html`);

/** Build `content` in memory and fail with its errors otherwise; returns the output. */
async function build(content: string): Promise<Out> {
  return (await renderSite(content)).out;
}

/** Run a build expected to fail; returns its stderr. */
async function failing(content: string): Promise<string> {
  const r = await runCli(['build', '--content', content, '--out', path.join(tmpDir(), 'dist')]);
  expect(r.code, r.stdout).toBe(1);
  return r.stderr;
}

describe('[R-OPS-1] one source per price: a changed rate tier shows everywhere, the old price nowhere', () => {
  const rates = yamlOf<{ tiers: { id: string; price: number | null }[]; extras: { price: number }[] }>(SHIPPED_CONTENT, 'data/rates.yaml');
  const all = [...rates.tiers.map((t) => t.price), ...rates.extras.map((e) => e.price)].filter((p): p is number => p !== null);
  // A tier whose price no other tier or extra shares (so "the old price nowhere" is well defined).
  const tier = rates.tiers.find((t) => t.price !== null && t.price < 1000 && all.filter((p) => p === t.price).length === 1)!;
  const oldPrice = tier.price!;
  let newPrice = oldPrice + 7;
  while (all.includes(newPrice)) newPrice++;
  // A price as any language shows it (€250, 250 €, 250\u00a0€) or as the markup states it.
  const shows = (html: string, n: number) => new RegExp(`€[\\s\\u00a0\\u202f]?${n}(?![\\d,.])|(?<![\\d,.])${n}[\\s\\u00a0\\u202f]?€|"price":${n}(?!\\d)`).test(html);
  let before: Out;
  let after: Out;

  beforeAll(async () => {
    const content = copyContent(SHIPPED_CONTENT);
    edit(content, 'data/rates.yaml', new RegExp(`(id: ${tier.id},[^}]*price: )${oldPrice}\\b`), `$1${newPrice}`);
    [before, after] = await Promise.all([build(copyContent(SHIPPED_CONTENT)), build(content)]);
  }, 300_000);

  it('the fixture changed one file only, and the shipped site did show the old price', () => {
    expect(htmlFiles(before).some((f) => shows(read(before, f), oldPrice))).toBe(true);
  });

  for (const lang of langs) {
    it(`[R-OPS-1] ${lang}: no page shows the old price; every page that showed it shows the new one`, () => {
      const pages = htmlFiles(after).filter((f) => (lang === site.defaultLanguage ? !langs.some((l) => l !== lang && (f.startsWith(`${l}/`) || f === `${l}.html`)) : f.startsWith(`${lang}/`) || f === `${lang}.html`));
      expect(pages.length).toBeGreaterThan(0);
      const stale = pages.filter((f) => shows(read(after, f), oldPrice));
      expect(stale, `pages still showing ${oldPrice}`).toEqual([]);
      const missing = pages.filter((f) => shows(read(before, f), oldPrice) && !shows(read(after, f), newPrice));
      expect(missing, `pages that showed ${oldPrice} but not ${newPrice}`).toEqual([]);
    });
  }
});

describe('[R-OPS-2] a city is content: one entry in cities.yaml plus its texts', () => {
  const cities = yamlOf<{ id: string; path: string; timezone: string }[]>(SHIPPED_CONTENT, 'data/cities.yaml');
  const cta = yamlOf<{ messageLanguage: string; messages: { cityLine: string }; }>(SHIPPED_CONTENT, 'data/cta.yaml');
  const business = yamlOf<{ type: string }>(SHIPPED_CONTENT, 'data/business.yaml');
  // A zone no shipped city uses, so the booking option's zone is the new city's own.
  const zone = ['Europe/Lisbon', 'Atlantic/Canary', 'America/New_York'].find((z) => !cities.some((c) => c.timezone === z))!;
  const city = { id: 'lisbon-test', path: '/lisbon-test-companion', name: (lang: string) => `Lisboa-${lang}` };
  let out: Out;

  beforeAll(async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const list = yamlOf<object[]>(content, 'data/cities.yaml');
    list.push({ id: city.id, path: city.path, timezone: zone, status: 'active', areas: ['alfama'] });
    writeFileSync(path.join(content, 'data/cities.yaml'), stringify(list));
    for (const lang of langs) {
      const table = yamlOf<Record<string, any>>(content, `i18n/${lang}.yaml`);
      table.city[city.id] = { name: city.name(lang), title: `T ${lang}`, intro: 'I', experienceTitle: 'E', experience: 'X', area: { alfama: 'Alfama' }, areaText: { alfama: 'A' } };
      table.page[city.id] = { title: `Title ${lang}`, description: `Description ${lang}` };
      writeFileSync(path.join(content, `i18n/${lang}.yaml`), stringify(table));
    }
    out = await build(content);
  }, 300_000);

  it('[R-OPS-2] its page exists in every language, with business markup naming it among the areas served', () => {
    for (const lang of langs) {
      const file = fileOf(localize(city.path, lang));
      const doc = parseHtml(read(out, file));
      expect(doc.querySelector('main')?.getAttribute('data-city'), file).toBe(city.id);
      const biz = headOf(doc).jsonLd.find((j) => j['@type'] === business.type) as { areaServed: { name: string }[] } | undefined;
      expect(biz, `${file}: business JSON-LD`).toBeDefined();
      expect(biz!.areaServed.map((a) => a.name)).toContain(city.name(lang));
    }
  });

  it('[R-OPS-2] the WhatsApp city line says its name in the message language', () => {
    const data = JSON.parse(parseHtml(read(out, fileOf(city.path))).querySelector('#site-data')!.textContent!);
    expect(data.page.city).toBe(city.id);
    // The message templates are in the data every page shares (templates/client-data.ts).
    const shared = JSON.parse(read(out, data.shared.replace(/^\//, '')));
    expect(shared.messages.city[city.id]).toBe(cta.messages.cityLine.replace('{city}', city.name(cta.messageLanguage)));
  });

  it('[R-OPS-2] the booking form offers it with its time zone; its page links the booking form with ?city=', () => {
    for (const lang of langs) {
      const doc = parseHtml(read(out, fileOf(localize('/booking', lang))));
      const option = doc.querySelector(`#booking-city option[value="${city.id}"]`);
      expect(option?.textContent, lang).toBe(city.name(lang));
      expect(option?.getAttribute('data-timezone')).toBe(zone);
      expect(option?.getAttribute('data-zone-line')).toContain(zone);
    }
    const page = parseHtml(read(out, fileOf(city.path)));
    expect([...page.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toContain(`/booking?city=${city.id}`);
  });

  it('[R-OPS-2] the footer and the contact page list it', () => {
    for (const lang of langs) {
      const href = localize(city.path, lang);
      const contact = parseHtml(read(out, fileOf(localize('/contact', lang))));
      expect([...contact.querySelectorAll('footer a')].map((a) => a.getAttribute('href')), `${lang} footer`).toContain(href);
      expect([...contact.querySelectorAll('main a')].map((a) => a.getAttribute('href')), `${lang} contact`).toContain(href);
    }
    expect(read(out, 'sitemap.xml')).toContain(city.path);
  });
});

describe('[R-OPS-2][R-OPS-1] references by id are checked with file, line and field', () => {
  it('[R-OPS-2] a review for city "madird" is an error naming data/reviews.yaml, the line and the field', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const first = yamlOf<{ id: string; city: string }[]>(content, 'data/reviews.yaml')[0]!;
    edit(content, 'data/reviews.yaml', `city: ${first.city}`, 'city: madird');
    const lines = readFileSync(path.join(content, 'data/reviews.yaml'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('city: madird')) + 1;
    expect(await failing(content)).toMatch(new RegExp(`data/reviews\\.yaml:${line}:\\d+: error \\[reference\\] \\[${first.id}\\]\\.city: "madird" is not a city id in data/cities\\.yaml`));
  });

  it('[R-OPS-2] venue cities, city images and city ids that clash with pages.yaml are checked', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const venues = yamlOf<{ city: string }[]>(content, 'data/venues.yaml');
    if (venues.length) edit(content, 'data/venues.yaml', `city: ${venues[0]!.city}`, 'city: nowhere');
    const list = yamlOf<Record<string, unknown>[]>(content, 'data/cities.yaml');
    list[0]!.image = 'no-such-image';
    list.push({ id: 'rates', path: '/rates-city', timezone: 'Europe/Madrid', status: 'upcoming' });
    writeFileSync(path.join(content, 'data/cities.yaml'), stringify(list));
    const err = await failing(content);
    if (venues.length) expect(err).toMatch(/data\/venues\.yaml:\d+:\d+: error \[reference\] \[(?!\d+\])[\w-]+\]\.city: "nowhere" is not a city id/);
    expect(err).toMatch(/data\/cities\.yaml:\d+:\d+: error \[reference\] \[(?!\d+\])[\w-]+\]\.image: "no-such-image" is not an image id in data\/gallery\.yaml/);
    expect(err).toMatch(new RegExp(`data/cities\\.yaml:\\d+:\\d+: error \\[duplicate\\] \\[rates\\]\\.id: city "rates" has the id of a page`));
  });

  it('[R-OPS-1] a service card or booking duration naming an unknown rate tier is an error with file, line and field', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const services = yamlOf<{ cards: { tier: string }[] }>(content, 'data/services.yaml');
    const booking = yamlOf<{ durations: { tier: string }[] }>(content, 'data/booking.yaml');
    edit(content, 'data/services.yaml', `tier: ${services.cards[0]!.tier}`, 'tier: hourr');
    edit(content, 'data/booking.yaml', `tier: ${booking.durations[0]!.tier}`, 'tier: hourr');
    const err = await failing(content);
    expect(err).toMatch(/data\/services\.yaml:\d+:\d+: error \[reference\] cards\[(?!\d+\])[\w-]+\]\.tier: "hourr" is not a rate tier id in data\/rates\.yaml/);
    expect(err).toMatch(/data\/booking\.yaml:\d+:\d+: error \[reference\] durations\[(?!\d+\])[\w-]+\]\.tier: "hourr" is not a rate tier id/);
  });

  it('[R-OPS-1] a price typed into services.yaml or booking.yaml is refused (the tier is the one source)', async () => {
    const content = copyContent(SHIPPED_CONTENT);
    const services = yamlOf<{ cards: { tier: string }[] }>(content, 'data/services.yaml');
    edit(content, 'data/services.yaml', `tier: ${services.cards[0]!.tier}`, `tier: ${services.cards[0]!.tier}, price: 1`);
    expect(await failing(content)).toMatch(/data\/services\.yaml:\d+:\d+: error \[schema\] cards\[(?!\d+\])[\w-]+\]\.price: unknown key "price"/);
  });
});
