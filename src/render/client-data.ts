/**
 * The data the client script reads from each page (`<script type="application/json" id="site-data">`).
 * Everything the browser needs comes from content: texts, message templates, sources, numbers.
 */
import type { Site } from '../content/model.ts';
import type { Translate } from '../content/texts.ts';
import type { Route } from '../routes/table.ts';

export interface ClientVariant {
  id: string;
  icon: string;
  color: string;
  primary: string;
  secondary: string;
  urgency: string;
}

export interface ClientData {
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
  /** Message templates and the booking options' labels, in the message language (cta.yaml). */
  messages: Site['cta']['messages'] & { duration: Record<string, string>; location: Record<string, string> };
  tracking: { directorySources: readonly string[]; referrers: Readonly<Record<string, string>>; attributionDays: number };
  booking: { minAdvanceHours: number; timezone: string };
  /** Validation and status texts in the page's language. */
  texts: Record<string, string>;
}

const CLIENT_TEXTS = ['required', 'invalidEmail', 'invalidPhone', 'tooSoon', 'invalidDate', 'summary', 'sending', 'blocked'] as const;

/** The city a page is about (from its route), else "general". */
export function cityOf(site: Site, route: Route): string {
  const city = site.cities.find((c) => c.page === route.page?.id);
  return city ? city.id : 'general';
}

export function clientData(site: Site, route: Route, t: Translate): ClientData {
  const table = site.texts[site.cta.messageLanguage] ?? site.texts[site.defaultLanguage] ?? {};
  const label = (key: string) => table[key] ?? key;
  const madrid = site.cities.find((c) => c.id === 'madrid') ?? site.cities[0]!;
  return {
    lang: route.lang,
    defaultLanguage: site.defaultLanguage,
    languages: site.languages,
    storageKey: site.config.storageKey,
    consentMode: site.config.features.consent,
    analytics: site.config.analytics,
    page: {
      kind: route.kind,
      id: route.page?.id,
      city: cityOf(site, route),
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
      ...site.cta.messages,
      duration: Object.fromEntries(site.booking.durations.map((d) => [d.id, label(`booking.duration.${d.id}`)])),
      location: Object.fromEntries(site.booking.locations.map((l) => [l, label(`booking.location.${l}`)])),
    },
    tracking: { directorySources: site.tracking.directorySources, referrers: site.tracking.referrers, attributionDays: site.tracking.attributionDays },
    booking: { minAdvanceHours: site.booking.minAdvanceHours, timezone: madrid.timezone },
    texts: Object.fromEntries(CLIENT_TEXTS.map((k) => [k, t(`booking.error.${k}`, { hours: site.booking.minAdvanceHours, phone: site.config.contact.phone })])),
  };
}
