/**
 * References by id between this site's content files (a card's rate tier, a review's city, a
 * city's image): each must name something that exists, reported with the file, line and field of
 * the reference. Runs on whatever loaded, so one run reports every broken reference.
 */
import type { LoadedParts, Report } from '@site/api';
import type { Config, Data } from './index.ts';

export function checkReferences(input: LoadedParts<Data, Config>, report: Report): void {
  const { services, rates, booking, business, cities, gallery, reviews, venues, cta } = input.data;
  const ref = (file: string, path: (string | number)[], value: string, what: string, known: Iterable<string>) => {
    const list = [...known];
    if (!list.includes(value)) report.error({ file, path }, `"${value}" is not ${what} (${list.join(', ') || 'none defined'})`, 'reference');
  };
  const tiers = rates?.tiers.map((t) => t.id);
  const cityIds = cities?.map((c) => c.id);
  const pageIds = input.pages?.map((p) => p.id);

  if (tiers) {
    services?.cards.forEach((c, i) => ref('data/services.yaml', ['cards', i, 'tier'], c.tier, 'a rate tier id in data/rates.yaml', tiers));
    booking?.durations.forEach((d, i) => ref('data/booking.yaml', ['durations', i, 'tier'], d.tier, 'a rate tier id in data/rates.yaml', tiers));
    business?.offers.forEach((o, i) => ref('data/business.yaml', ['offers', i], o, 'a rate tier id in data/rates.yaml', tiers));
  }
  if (pageIds) {
    const all = [...pageIds, ...(cityIds ?? [])];
    services?.cards.forEach((c, i) => c.page && ref('data/services.yaml', ['cards', i, 'page'], c.page, 'a page id', all));
    business?.pages.forEach((p, i) => ref('data/business.yaml', ['pages', i], p, 'a page id (pages.yaml) or city id', all));
    if (business) ref('data/business.yaml', ['offersPage'], business.offersPage, 'a page id in pages.yaml', pageIds);
    cities?.forEach((c, i) => {
      if (pageIds.includes(c.id))
        report.error({ file: 'data/cities.yaml', path: [i, 'id'] }, `city "${c.id}" has the id of a page in pages.yaml: a city's page id is its city id, rename one of them`, 'duplicate');
    });
  }
  if (gallery) {
    const images = [...gallery.images, ...gallery.featured].map((g) => g.id);
    cities?.forEach((c, i) => c.image && ref('data/cities.yaml', [i, 'image'], c.image, 'an image id in data/gallery.yaml (images or featured)', images));
  }
  if (cityIds) {
    reviews?.forEach((r, i) => ref('data/reviews.yaml', [i, 'city'], r.city, 'a city id in data/cities.yaml', cityIds));
    venues?.forEach((v, i) => ref('data/venues.yaml', [i, 'city'], v.city, 'a city id in data/cities.yaml', cityIds));
  }
  if (cta) {
    const variants = cta.variants.map((v) => v.id);
    ref('data/cta.yaml', ['defaultVariant'], cta.defaultVariant, 'a variant id in data/cta.yaml', variants);
    for (const key of Object.keys(cta.messages.intro)) ref('data/cta.yaml', ['messages', 'intro', key], key, 'a variant id in data/cta.yaml', variants);
    if (input.config && !input.config.languages.includes(cta.messageLanguage))
      report.error({ file: 'data/cta.yaml', path: ['messageLanguage'] }, `"${cta.messageLanguage}" is not one of the site's languages (${input.config.languages.join(', ')})`, 'language');
    // The WhatsApp city line needs each city's name in the message language, or it would say the id.
    const table = input.texts[cta.messageLanguage];
    if (table)
      cities?.forEach((c, i) => {
        if (table[`city.${c.id}.name`] !== undefined) return;
        const message = `city "${c.id}" has no name in i18n/${cta.messageLanguage}.yaml (city.${c.id}.name), the WhatsApp message language: add it`;
        // A draft city is being prepared: its preview shows the id meanwhile.
        if (c.draft) report.warn({ file: 'data/cities.yaml', path: [i, 'id'] }, message, 'reference');
        else report.error({ file: 'data/cities.yaml', path: [i, 'id'] }, message, 'reference');
      });
  }
}

/**
 * A text that types a list of cities ("Madrid, Athens and Monaco") goes stale when a city is added:
 * such lists come from data/cities.yaml through {cities:names} (or :in, :from, :of, :line, :active…).
 * Two or more city names joined only by list punctuation or the language's "and" are reported.
 */
export function typedCityLists(input: LoadedParts<Data, Config>, report: Report): void {
  const cities = input.data.cities;
  if (!cities || cities.length < 2) return;
  const ids = cities.map((c) => c.id).join('\0');
  for (const [lang, table] of Object.entries(input.texts)) {
    // The keys found, kept with a frozen table (a watch rebuild gives an unchanged file's table again).
    const kept = cityListsFound.get(table);
    const found = kept?.ids === ids ? kept.keys : typedCityListKeys(table, cities);
    if (Object.isFrozen(table)) cityListsFound.set(table, { ids, keys: found });
    for (const key of found)
      report.warn({ file: `i18n/${lang}.yaml`, path: key.split('.') }, `types a list of cities: write {cities:names} (or {cities:in}, {cities:from}, {cities:of}, {cities:line}) so a city added to data/cities.yaml joins it`, 'city-list');
  }
}
const cityListsFound = new WeakMap<object, { ids: string; keys: readonly string[] }>();

/** The keys of `table` whose text types a list of the cities' names. */
function typedCityListKeys(table: Readonly<Record<string, string>>, cities: readonly { id: string }[]): string[] {
  const names = new Set<string>();
  for (const c of cities) for (const form of ['name', 'in', 'from', 'of']) {
    const v = table[`city.${c.id}.${form}`];
    if (v) names.add(v.replace(/^(?:στη[ν]?|στο|à|de|d’|d')\s*/u, '').trim());
  }
  const alt = [...names].filter((n) => n.length > 1).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  if (!alt) return [];
  // name, joiner, name: a comma, a middle dot, "and" in these languages, with articles between.
  const joined = new RegExp(`(?<![\\p{L}])(?:${alt})(?![\\p{L}])(?:\\s*(?:,|·|&)\\s*|\\s+(?:and|y|e|и|και|et)\\s+)(?:(?:την|το|τη|της|του|d’|de|à|в|из)\\s*)?(?:${alt})(?![\\p{L}])`, 'u');
  return Object.entries(table)
    .filter(([key, text]) => !key.startsWith('city.') && !text.includes('{cities:') && joined.test(text))
    .map(([key]) => key);
}
