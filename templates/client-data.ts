/**
 * The data the client script reads: from each page (`<script type="application/json" id="site-data">`)
 * what differs between pages, and from one shared file (`assets/site-data.<hash>.json`, made by
 * `assetFiles` in templates/index.tsx) what every page would repeat: the WhatsApp message templates
 * and the listing sites. Every page so stays within the first round trip (R-VIS-8).
 * Everything the browser needs comes from content: texts, message templates, sources, numbers.
 */
import { basePath, type Route, type Translate } from '@site/api';
import { encodeLabel, nameHash } from '../client/names.ts';
import type { City, PageContext, Site } from './model/index.ts';
import { cityOf } from './model/helpers.ts';

export interface ClientVariant {
  id: string;
  icon: string;
  color: string;
  primary: string;
  secondary: string;
  urgency: string;
}

/** What the script works with: the page's data and the shared file's. */
export type ClientData = PageClientData & SharedClientData;

/** The name of the shared file (TemplateModule.assetFiles); pages give its URL in `shared`. */
export const SHARED_DATA_FILE = 'site-data.json';

export interface PageClientData {
  /** The URL of the shared data (SharedClientData), a hashed file the service worker caches too. */
  shared: string;
  /** The base path ('' at the root, '/site' for a GitHub Pages project site): the service worker and language redirect live under it. */
  base: string;
  lang: string;
  defaultLanguage: string;
  languages: readonly string[];
  storageKey: string;
  /** Consent mode: true means nothing non-essential happens before Accept. */
  consentMode: boolean;
  analytics: Site['config']['analytics'];
  page: { kind: string; id?: string; city: string; landing?: { source: string } };
  whatsapp: string;
  phone: string;
  cta: { variants: ClientVariant[]; defaultVariant: string; /** Hashes (client/names.ts). */ directActionSources: readonly string[] };
  /** The 3-hour rule; `timezone` is the default city's (the form's chosen city overrides it). */
  booking: { minAdvanceHours: number; timezone: string };
}

/** The same for every page of the site. */
export interface SharedClientData {
  /**
   * Message templates and the booking options' labels, in the message language (cta.yaml); `city`
   * is each city's line (cta.yaml cityLine with the city's name), `general` the empty line;
   * `location` the places in the client's own words (booking.messageLocation: "mi hotel"); `locale`
   * the message language's locale, for the date.
   */
  messages: Omit<Site['data']['cta']['messages'], 'cityLine'> & { city: Record<string, string>; duration: Record<string, string>; location: Record<string, string>; locale: string };
  /**
   * Listing sites, not spelled out (client/names.ts): `directorySources` and `directActionSources`
   * as hashes of utm_source values, `referrers` as hash of a domain → base64 source label.
   */
  tracking: { directorySources: readonly string[]; referrers: Readonly<Record<string, string>>; attributionDays: number };
}

/** The city booked when the visitor did not choose: the first active city, else the first. */
export function defaultCity(site: Site): City {
  return site.data.cities.find((c) => c.status === 'active') ?? site.data.cities[0]!;
}

/** Each city's WhatsApp city line, `label` giving the city's name in the message language; plus `general` (no city). */
function cityLines(site: Site, label: (key: string) => string): Record<string, string> {
  const lines: Record<string, string> = { general: '' };
  // A function, not a pattern string: a name holding `$&` stays as written.
  for (const c of site.data.cities) lines[c.id] = site.data.cta.messages.cityLine.replace('{city}', () => label(`city.${c.id}.name`));
  return lines;
}

/**
 * The client data of a page. It only depends on the language and what the page is (kind, page,
 * city, landing source): the Document renders it through `ctx.once` under that key, so all posts of
 * a language share one serialised block.
 */
export function clientDataKey(route: Route): string {
  return `client-data\0${route.kind}\0${route.page?.id ?? ''}\0${route.source ?? ''}`;
}

export function clientData(ctx: PageContext): PageClientData {
  const { site, route, t } = ctx;
  const { cta, tracking, booking } = site.data;
  return {
    shared: ctx.assets.files?.[SHARED_DATA_FILE] ?? '',
    base: basePath(site.config.baseUrl),
    lang: route.lang,
    defaultLanguage: site.defaultLanguage,
    languages: site.languages,
    storageKey: site.config.storageKey,
    consentMode: site.config.features.consent,
    analytics: site.config.analytics,
    page: {
      kind: route.kind,
      id: route.page?.id,
      city: cityOf(route)?.id ?? 'general',
      ...(route.kind === 'landing' && route.source ? { landing: { source: route.source } } : {}),
    },
    whatsapp: site.config.contact.whatsapp.replace(/\D/g, ''),
    phone: site.config.contact.phone,
    cta: {
      variants: cta.variants.map((v) => ({
        id: v.id,
        icon: v.icon,
        color: v.color,
        primary: t(`cta.${v.id}.primary`),
        secondary: t(`cta.${v.id}.secondary`),
        urgency: t(`cta.${v.id}.urgency`),
      })),
      defaultVariant: cta.defaultVariant,
      directActionSources: tracking.directActionSources.map(nameHash),
    },
    booking: { minAdvanceHours: booking.minAdvanceHours, timezone: defaultCity(site).timezone },
  };
}

/** The data every page shares: the WhatsApp message in its language and the listing sites. */
export function sharedClientData(site: Site, textsOf: (lang: string) => Translate): SharedClientData {
  const { cta, tracking, booking } = site.data;
  // Labels for the WhatsApp message, in its language, through the same ICU formatter as every text.
  const messages = textsOf(site.texts[cta.messageLanguage] ? cta.messageLanguage : site.defaultLanguage);
  const label = (key: string) => (messages.has(key) ? messages(key) : key);
  return {
    messages: {
      intro: cta.messages.intro,
      fields: cta.messages.fields,
      reference: cta.messages.reference,
      city: cityLines(site, label),
      duration: Object.fromEntries(booking.durations.map((d) => [d.id, label(`booking.duration.${d.id}`)])),
      location: Object.fromEntries(booking.locations.map((l) => [l, label(`booking.messageLocation.${l}`)])),
      locale: label('lang.locale'),
    },
    tracking: {
      directorySources: tracking.directorySources.map(nameHash),
      referrers: Object.fromEntries(Object.entries(tracking.referrers).map(([domain, source]) => [nameHash(domain.toLowerCase()), encodeLabel(source)])),
      attributionDays: tracking.attributionDays,
    },
  };
}
