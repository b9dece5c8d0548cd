/**
 * References by id between content files (a card's rate tier, a review's city, a city's image):
 * each must name something that exists, reported with the file, line and field of the reference.
 */
import type { Diagnostics } from '../diagnostics.ts';
import type { Booking, Business, City, Gallery, PageDef, Review, Services, Rates, Venue, Cta } from './model.ts';
import type { YamlFile } from './yaml.ts';

/** The loaded files a reference can point from or to; a file that failed to load is undefined. */
export interface ReferenceInput {
  pages?: readonly PageDef[];
  services?: Services;
  rates?: Rates;
  booking?: Booking;
  business?: Business;
  cities?: readonly City[];
  gallery?: Gallery;
  reviews?: readonly Review[];
  venues?: readonly Venue[];
  cta?: Cta;
  /** Flattened text tables by language. */
  texts: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Parsed files by content-relative path, to locate a field. */
  files: ReadonlyMap<string, YamlFile>;
}

/** Report every reference by id that names nothing. */
export function checkReferences(input: ReferenceInput, diags: Diagnostics): void {
  const ref = (file: string, path: (string | number)[], value: string, what: string, known: Iterable<string>) => {
    const list = [...known];
    if (list.includes(value)) return;
    const field = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
    diags.error({
      code: 'reference',
      file,
      ...input.files.get(file)?.locate(path),
      field,
      message: `"${value}" is not ${what} (${list.join(', ') || 'none defined'})`,
    });
  };
  const tiers = input.rates?.tiers.map((t) => t.id);
  const cities = input.cities?.map((c) => c.id);
  const pageIds = input.pages?.map((p) => p.id);

  if (tiers) {
    input.services?.cards.forEach((c, i) => ref('data/services.yaml', ['cards', i, 'tier'], c.tier, 'a rate tier id in data/rates.yaml', tiers));
    input.booking?.durations.forEach((d, i) => ref('data/booking.yaml', ['durations', i, 'tier'], d.tier, 'a rate tier id in data/rates.yaml', tiers));
  }
  if (pageIds) {
    const all = [...pageIds, ...(cities ?? [])];
    input.services?.cards.forEach((c, i) => c.page && ref('data/services.yaml', ['cards', i, 'page'], c.page, 'a page id', all));
    input.business?.pages.forEach((p, i) => ref('data/business.yaml', ['pages', i], p, 'a page id (pages.yaml) or city id', all));
    if (input.business) ref('data/business.yaml', ['offersPage'], input.business.offersPage, 'a page id in pages.yaml', pageIds);
    input.cities?.forEach((c, i) => {
      if (pageIds.includes(c.id))
        diags.error({ code: 'duplicate', file: 'data/cities.yaml', ...input.files.get('data/cities.yaml')?.locate([i, 'id']), field: `[${i}].id`, message: `city "${c.id}" has the id of a page in pages.yaml: a city's page id is its city id, rename one of them` });
    });
  }
  if (input.gallery) {
    const images = [...input.gallery.images, ...input.gallery.featured].map((g) => g.id);
    input.cities?.forEach((c, i) => c.image && ref('data/cities.yaml', [i, 'image'], c.image, 'an image id in data/gallery.yaml (images or featured)', images));
  }
  if (cities) {
    input.reviews?.forEach((r, i) => ref('data/reviews.yaml', [i, 'city'], r.city, 'a city id in data/cities.yaml', cities));
    input.venues?.forEach((v, i) => ref('data/venues.yaml', [i, 'city'], v.city, 'a city id in data/cities.yaml', cities));
  }
  if (input.cta) {
    const variants = input.cta.variants.map((v) => v.id);
    ref('data/cta.yaml', ['defaultVariant'], input.cta.defaultVariant, 'a variant id in data/cta.yaml', variants);
    for (const key of Object.keys(input.cta.messages.intro)) ref('data/cta.yaml', ['messages', 'intro', key], key, 'a variant id in data/cta.yaml', variants);
    // The WhatsApp city line needs each city's name in the message language, or it would say the id.
    const table = input.texts[input.cta.messageLanguage];
    if (table)
      input.cities?.forEach((c, i) => {
        if (table[`city.${c.id}.name`] === undefined)
          diags.error({ code: 'reference', file: 'data/cities.yaml', ...input.files.get('data/cities.yaml')?.locate([i, 'id']), field: `[${i}].id`, message: `city "${c.id}" has no name in i18n/${input.cta!.messageLanguage}.yaml (city.${c.id}.name), the WhatsApp message language: add it` });
      });
  }
}
