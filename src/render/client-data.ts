/**
 * The data the client script reads from each page (`<script type="application/json" id="site-data">`).
 * Everything the browser needs comes from content: texts, message templates, sources, numbers.
 */
import type { Site } from '../content/model.ts';
import { siteMessages, type Translate } from '../content/texts.ts';
import type { Route } from '../routes/table.ts';
import { basePathOf } from '../routes/paths.ts';

export interface ClientVariant {
  id: string;
  icon: string;
  color: string;
  primary: string;
  secondary: string;
  urgency: string;
}

export interface ClientData {
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
  cta: { variants: ClientVariant[]; defaultVariant: string; directActionSources: readonly string[] };
  /**
   * Message templates and the booking options' labels, in the message language (cta.yaml); `city`
   * is each city's line (cta.yaml cityLine with the city's name), `general` the empty line.
   */
  messages: Omit<Site['cta']['messages'], 'cityLine'> & { city: Record<string, string>; duration: Record<string, string>; location: Record<string, string> };
  tracking: { directorySources: readonly string[]; referrers: Readonly<Record<string, string>>; attributionDays: number };
  /** The 3-hour rule; `timezone` is the default city's (the form's chosen city overrides it). */
  booking: { minAdvanceHours: number; timezone: string };
}

/** The city a page is about (from its route), else "general". */
export function cityOf(route: Route): string {
  return route.city?.id ?? 'general';
}

/** The city booked when the visitor did not choose: the first active city, else the first. */
export function defaultCity(site: Site): Site['cities'][number] {
  return site.cities.find((c) => c.status === 'active') ?? site.cities[0]!;
}

/** Each city's WhatsApp city line, `label` giving the city's name in the message language; plus `general` (no city). */
function cityLines(site: Site, label: (key: string) => string): Record<string, string> {
  const lines: Record<string, string> = { general: '' };
  for (const c of site.cities) lines[c.id] = site.cta.messages.cityLine.replace('{city}', label(`city.${c.id}.name`));
  return lines;
}

export function clientData(site: Site, route: Route, t: Translate): ClientData {
  // Labels for the WhatsApp message, in its language, through the same ICU formatter as every text.
  const messages = siteMessages(site, site.texts[site.cta.messageLanguage] ? site.cta.messageLanguage : site.defaultLanguage);
  const label = (key: string) => messages.format(key) ?? key;
  return {
    base: basePathOf(site.config.baseUrl),
    lang: route.lang,
    defaultLanguage: site.defaultLanguage,
    languages: site.languages,
    storageKey: site.config.storageKey,
    consentMode: site.config.features.consent,
    analytics: site.config.analytics,
    page: {
      kind: route.kind,
      id: route.page?.id,
      city: cityOf(route),
      ...(route.kind === 'landing' && route.source ? { landing: { source: route.source } } : {}),
    },
    whatsapp: site.config.contact.whatsapp.replace(/\D/g, ''),
    phone: site.config.contact.phone,
    cta: {
      variants: site.cta.variants.map((v) => ({
        id: v.id,
        icon: v.icon,
        color: v.color,
        primary: t(`cta.${v.id}.primary`),
        secondary: t(`cta.${v.id}.secondary`),
        urgency: t(`cta.${v.id}.urgency`),
      })),
      defaultVariant: site.cta.defaultVariant,
      directActionSources: site.tracking.directActionSources,
    },
    messages: {
      intro: site.cta.messages.intro,
      fields: site.cta.messages.fields,
      reference: site.cta.messages.reference,
      city: cityLines(site, label),
      duration: Object.fromEntries(site.booking.durations.map((d) => [d.id, label(`booking.duration.${d.id}`)])),
      location: Object.fromEntries(site.booking.locations.map((l) => [l, label(`booking.location.${l}`)])),
    },
    tracking: { directorySources: site.tracking.directorySources, referrers: site.tracking.referrers, attributionDays: site.tracking.attributionDays },
    booking: { minAdvanceHours: site.booking.minAdvanceHours, timezone: defaultCity(site).timezone },
  };
}
