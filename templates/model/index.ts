/**
 * This site's model: its own data kinds (cities, rates, venues…), how they are checked, which
 * pages and facts they make. The generator loads this module (it knows nothing of cities or
 * providers); templates import its types (`PageContext`, `City`…) from here.
 */
import type { z } from 'zod';
import { defineModel, type Fact, type LoadedParts, type PageContext as GenericContext, type Site as GenericSite } from '@site/api';
import * as S from './schemas.ts';
import { checkReferences, typedCityLists } from './references.ts';
import { newCity } from './new-city.ts';
import { addMonths } from './helpers.ts';

const data = {
  directories: { file: 'data/directories.yaml', schema: S.directoriesSchema, unique: 'slug' },
  services: { file: 'data/services.yaml', schema: S.servicesSchema },
  rates: { file: 'data/rates.yaml', schema: S.ratesSchema },
  booking: { file: 'data/booking.yaml', schema: S.bookingSchema },
  venues: { file: 'data/venues.yaml', schema: S.venuesSchema, unique: 'id' },
  gallery: { file: 'data/gallery.yaml', schema: S.gallerySchema },
  reviews: { file: 'data/reviews.yaml', schema: S.reviewsSchema, unique: 'id' },
  cta: { file: 'data/cta.yaml', schema: S.ctaSchema },
  // A city's texts: city.<id>.… and its page's, page.<id>.… (site new city writes both).
  cities: { file: 'data/cities.yaml', schema: S.citiesSchema, unique: 'id', texts: ['city', 'page'] },
  health: { file: 'data/health.yaml', schema: S.healthSchema },
  business: { file: 'data/business.yaml', schema: S.businessSchema },
  legal: { file: 'data/legal.yaml', schema: S.legalSchema },
  tracking: { file: 'data/tracking.yaml', schema: S.trackingSchema },
} as const;

/** The site's data, kind by kind, as validated. */
export type Data = { -readonly [K in keyof typeof data]: z.output<(typeof data)[K]['schema']> };
/** What this site adds to site.yaml. */
export type Config = { [K in keyof typeof S.configFields]: z.output<(typeof S.configFields)[K]> };
export type Site = GenericSite<Data, Config>;
export type PageContext = GenericContext<Data, Config>;
export type City = Data['cities'][number];
export type Venue = Data['venues'][number];
export type Review = Data['reviews'][number];
export type GalleryImage = Data['gallery']['images'][number];
type Parts = LoadedParts<Data, Config>;

export { addMonths, cityOf } from './helpers.ts';

const number = (value: number): Fact => ({ kind: 'number', value });

export const model = defineModel<Data, Config>({
  config: S.configFields,
  data,
  pathParams: (config) => ({ profileSlug: config.provider.profileSlug }),
  // Every city of data/cities.yaml is a page (its id the page id), so templates link it like any page.
  entryPages: [{ data: 'cities', template: 'city' }],
  landings: { data: 'directories', prefix: '/s/' },
  facts: {
    // Rate tier and extra ids are the price ids (rates.yaml is the one place prices are declared); null: on request.
    price: ({ data: { rates } }) => rates && Object.fromEntries([...rates.tiers, ...rates.extras].filter((i) => i.price !== null).map((i) => [i.id, { kind: 'money', amount: i.price! }])),
    booking: ({ data: { booking } }) => booking && { minAdvanceHours: number(booking.minAdvanceHours), confirmationMinutes: number(booking.confirmationMinutes) },
    health: ({ data: { health } }) => health && { intervalMonths: number(health.intervalMonths) },
    tracking: ({ data: { tracking } }) => tracking && { attributionDays: number(tracking.attributionDays) },
    // Lists of cities, from data/cities.yaml in its order, joined the page language's way: a new city
    // joins every sentence that lists them. `in`, `from` and `of` use a city's texts
    // city.<id>.in|from|of where a language inflects names (ru: Мадриде, Мадрида), else its name.
    cities: ({ data: { cities } }) => {
      if (!cities) return undefined;
      const list = (rows: readonly City[], form?: string, separator?: string): Fact => ({
        kind: 'list',
        items: rows.map((c) => (form ? [`city.${c.id}.${form}`, `city.${c.id}.name`] : [`city.${c.id}.name`])),
        ...(separator !== undefined && { separator }),
      });
      const facts: Record<string, Fact> = { line: list(cities, undefined, ' · ') };
      // names, in, from, of; activeIn, upcomingFrom…: every form for all cities, the active ones and the upcoming ones.
      for (const [prefix, rows] of [['', cities], ['active', cities.filter((c) => c.status === 'active')], ['upcoming', cities.filter((c) => c.status === 'upcoming')]] as const)
        for (const form of ['names', 'in', 'from', 'of'] as const) {
          const name = prefix ? (form === 'names' ? prefix : `${prefix}${form[0]!.toUpperCase()}${form.slice(1)}`) : form;
          facts[name] = list(rows, form === 'names' ? undefined : form);
        }
      return facts;
    },
    contact: ({ config }) =>
      config && {
        phone: { kind: 'text', value: config.contact.phone },
        whatsapp: { kind: 'text', value: config.contact.whatsapp },
        ...(config.contact.email && { email: { kind: 'text', value: config.contact.email } }),
      },
  },
  check: (parts: Parts, report) => {
    checkReferences(parts, report);
    typedCityLists(parts, report);
  },
  warnings(site, report) {
    const { health, cities, reviews } = site.data;
    const due = addMonths(health.lastUpdate, health.intervalMonths);
    if (due < site.today)
      report.warn(
        { file: data.health.file, path: ['lastUpdate'] },
        `medical checks are every ${health.intervalMonths} months; the last update (${health.lastUpdate}) was due again on ${due} (the site no longer shows a next check date): update the date after the next check`,
        'stale',
      );
    // One warning per city, at its first passed milestone: the dates are the details.
    cities.forEach((city, i) => {
      const past = city.timeline.filter((m) => m.due < site.today);
      if (past.length)
        report.warn(
          { file: data.cities.file, path: [i, 'timeline', city.timeline.indexOf(past[0]!), 'due'] },
          `${past.length} launch milestone(s) of ${city.id} passed (${past.map((m) => `${m.id} ${m.due}`).join(', ')}): the page leaves them out until the timeline is updated`,
          'stale',
        );
    });
    const samples = reviews.filter((r) => r.sample);
    if (samples.length)
      report.warn({ file: data.reviews.file }, `${samples.length} sample review(s) (${samples.map((r) => r.id).join(', ')}) are shown labelled as samples and never marked up: replace them with real reviews`, 'sample');
  },
  // Published files are named after each image's id (lifestyle-1-800.<hash>.webp), never its file's name.
  images(site) {
    const g = site.data.gallery;
    const file = data.gallery.file;
    return [
      ...(['images', 'featured', 'portraits'] as const).flatMap((kind) => g[kind].map((img, i) => ({ file: img.file, at: { file, path: [kind, i, 'file'] }, name: img.id }))),
      { file: g.socialImage.file, at: { file, path: ['socialImage', 'file'] }, name: g.socialImage.id },
    ];
  },
  socialImage: (site) => site.data.gallery.socialImage.file,
  // Every page's client data carries the WhatsApp message's option labels, in the message language.
  sharedText: (key, lang, site) => lang === site.data.cta.messageLanguage && (key === 'lang.locale' || key.startsWith('booking.duration.') || key.startsWith('booking.messageLocation.') || /^city\.[^.]+\.name$/.test(key)),
  scaffolds: {
    city: {
      description:
        "Add a city: its entry in data/cities.yaml (its page, booking option, listings and WhatsApp city line follow) and its texts in every language (with the first city's keys and placeholders, marked untranslated).",
      options: [
        { flags: '--timezone <zone>', description: 'IANA time zone, such as Europe/Madrid', required: true },
        { flags: '--name <name>', description: 'name in the default language (default: from the id)' },
        { flags: '--path <path>', description: 'URL path of the city page (default: /<id>)' },
        { flags: '--status <status>', description: 'active or upcoming', default: 'active' },
      ],
      run: (contentDir, id, opts) => ({
        files: newCity(contentDir, id, { timezone: opts.timezone!, name: opts.name, path: opts.path, status: opts.status as 'active' | 'upcoming' | undefined }),
        next: `The city is a draft (draft: true in data/cities.yaml): npx site watch shows it, a published build leaves it out. Write its texts (marked [untranslated]) and its areas, then remove draft: true; npx site check --drafts --missing <lang> lists what is left in a language.`,
      }),
    },
  },
});
