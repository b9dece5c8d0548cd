/**
 * The shape of every content file, as zod schemas. Objects are strict: an unknown key is an
 * error naming the key, so a typo never passes silently.
 */
// Named imports, not the `z` namespace: the namespace keeps all of zod in the CLI bundle (its 40
// locales included: 814 KB of a 1.5 MB bundle, parsed at every start); these are what the schemas use.
import { HOSTS } from '../output/hosts/names.ts';
import { array, boolean, discriminatedUnion, email, enum as enumOf, literal, number, record, strictObject, string, union, url as urlOf } from 'zod';

const z = { array, boolean, discriminatedUnion, email, enum: enumOf, literal, number, record, strictObject, string, union, url: urlOf };

const id = z.string().regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'a lowercase id (letters, digits, - or _)');
const langCode = z.string().regex(/^[a-z]{2,3}(?:-[A-Z]{2})?$/, 'a language code such as en, es or pt-BR');
/** True for a day that exists (or text that is not YYYY-MM-DD at all): 2024-02-29 yes, 2025-02-30 and 2026-13-45 no. */
export function isRealDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return true; // the pattern's own message covers it
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
/** True for a time zone the platform knows (IANA: Europe/Madrid, America/Argentina/Buenos_Aires, UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
/** The one date schema of every content file: the pattern, then a day that exists in the calendar. */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD')
  .refine(isRealDate, 'a day that exists in the calendar (YYYY-MM-DD)');
const routePath = z
  .string()
  .regex(/^\/(?:(?:[a-z0-9][a-z0-9._-]*|\{[a-zA-Z]+\})(?:\/(?:[a-z0-9][a-z0-9._-]*|\{[a-zA-Z]+\}))*)?$/, 'a root-relative path in lowercase without trailing slash, like /rates');
const url = z.url({ protocol: /^https?$/, error: 'an absolute http(s) URL' });
const phone = z.string().regex(/^\+[0-9 ]{8,20}$/, 'an international phone number like +34 600 000 000');
/** An amount in whole euros: above zero and at most 100,000 (a larger figure is a typo, not a rate). */
const price = z.number().int('a whole number of euros').min(1, 'a price above 0 (leave a tier "on request" instead)').max(100_000, 'a price of at most 100,000 (more is a typo)');

/** `content/site.yaml`: identity, languages, contact details, features. */
export const siteSchema = z.strictObject({
  brand: z.string().min(1),
  // The base of every canonical and sitemap URL: a path may follow, a query or fragment may not.
  baseUrl: url.refine((u) => !/[?#]/.test(u), 'an absolute http(s) URL without a ?query or #fragment'),
  /** Browser UI colours (web manifest, theme-color meta). */
  colors: z.strictObject({ theme: z.string().regex(/^#[0-9a-f]{6}$/i), background: z.string().regex(/^#[0-9a-f]{6}$/i) }),
  languages: z.array(langCode).min(1),
  defaultLanguage: langCode,
  /** Prefix of every browser-storage key (`<prefix>.lang`, `<prefix>.consent`…): product-specific, so nothing clashes. */
  storageKey: z.string().regex(/^[a-z0-9._-]+$/),
  provider: z.strictObject({
    name: z.string().min(1),
    profileSlug: id,
    languagesSpoken: z.array(langCode).min(1),
  }),
  contact: z.strictObject({
    phone,
    whatsapp: phone,
    email: z.email().optional(),
  }),
  social: z.record(id, url),
  features: z.strictObject({
    admin: z.boolean(),
    consent: z.boolean(),
    footerSubtitle: z.boolean(),
  }),
  analytics: z.discriminatedUnion('provider', [
    z.strictObject({ provider: z.literal('none') }),
    z.strictObject({ provider: z.literal('ga4'), id: z.string().regex(/^G-[A-Z0-9]+$/, 'a GA4 id like G-XXXXXXX') }),
    z.strictObject({ provider: z.literal('plausible'), domain: z.string().min(1), src: url.optional() }),
  ]),
  /** Placeholder values shipped with the site: the build warns while a field still holds one. */
  samples: z.array(z.strictObject({ field: z.string().min(1), value: z.string() })).default([]),
  /** Where the site is deployed: the host whose files the build writes (`site build --host` wins). */
  deploy: z.strictObject({ host: z.enum(HOSTS) }).optional(),
});

/** `content/pages.yaml`: the site's fixed pages; each is built in every language. */
export const pagesSchema = z
  .array(
    z.strictObject({
      id,
      path: routePath,
      template: id,
      /**
       * page: indexable; not-found: the 404 page; offline: the service worker's fallback page;
       * admin: only when features.admin, default language only. All but page are noindex.
       */
      kind: z.enum(['page', 'not-found', 'offline', 'admin']).default('page'),
      /** Id of the page this one duplicates (its canonical); it is then left out of the sitemap. */
      canonical: id.optional(),
      /** Breadcrumb parent page id. */
      parent: id.optional(),
    }),
  )
  .min(1);

/** `content/data/blog.yaml`. */
export const blogSchema = z.strictObject({
  path: routePath,
  categories: z.array(id).min(1),
  /** Posts per list page; longer lists continue at {path}/page/2 etc., so no page grows with the blog. */
  postsPerPage: z.number().int().min(1).max(100),
});

/** Front matter of `content/blog/<slug>/<lang>.md`. */
export const postSchema = z.strictObject({
  title: z.string().min(1),
  excerpt: z.string().min(1),
  date: isoDate,
  category: id,
  author: z.string().min(1),
  tags: z.array(z.string().min(1)).default([]),
  draft: z.boolean().default(false),
  updated: isoDate.optional(),
});

export const redirectsSchema = z.array(z.strictObject({ from: routePath, to: routePath }));

export const directoriesSchema = z.array(
  z.strictObject({
    slug: id,
    to: routePath,
    /** The listing site's name as analytics and the WhatsApp reference see it. */
    source: id,
  }),
);

export const servicesSchema = z.strictObject({
  cards: z.array(
    z.strictObject({
      id,
      icon: z.string().min(1),
      /** Rate tier id (data/rates.yaml): the card's price, duration and badge come from it. */
      tier: id,
      /** Badge shown instead of the tier's (badge.<id>). */
      badge: id.optional(),
      page: id.optional(),
    }),
  ),
  included: z.array(id),
  requirements: z.array(id),
});

export const ratesSchema = z.strictObject({
  tiers: z.array(
    z.strictObject({
      id,
      badge: id,
      duration: id,
      price: price.nullable(),
      /** Shown as "from {price}". */
      from: z.boolean().default(false),
      /** Shown as "on request" (beside the price when there is one). */
      onRequest: z.boolean().default(false),
    }),
  ),
  extras: z.array(z.strictObject({ id, duration: id, price })),
});

export const bookingSchema = z.strictObject({
  /** Whole hours, from 1 to a week: "at least 0 hours" would tell visitors nothing. */
  minAdvanceHours: z.number().int('whole hours').min(1, 'at least 1 hour').max(168, 'at most 168 hours (a week)'),
  confirmationMinutes: z.number().int().positive(),
  /** Durations offered (labels: booking.duration.<id>); price and "on request" come from the rate tier. */
  durations: z.array(z.strictObject({ id, tier: id })).min(1),
  locations: z.array(id).min(1),
});

export const venuesSchema = z.array(
  z.strictObject({
    id,
    name: z.string().min(1),
    city: id,
    address: z.string().min(1),
    phone,
    email: z.email().optional(),
    /** A price range in EUR, or a text key id (`variable`, `premium`). */
    price: z.union([z.strictObject({ min: price, max: price }).refine((r) => r.min <= r.max, 'a range whose min is not above its max'), id]),
    features: z.array(id),
  }),
);

export const galleryImage = z.strictObject({
  id,
  category: id,
  file: z.string().regex(/^[a-z0-9/_-]+\.(?:jpe?g|png|webp|avif|svg)$/, 'an image file under content/images'),
});

export const gallerySchema = z.strictObject({
  categories: z.array(id).min(1),
  /** Open Graph / Twitter preview image. */
  socialImage: galleryImage.omit({ category: true }),
  /** Portraits used on the about page and in the hero. */
  portraits: z.array(galleryImage.omit({ category: true })),
  images: z.array(galleryImage),
  featured: z.array(galleryImage),
});

export const reviewsSchema = z.array(
  z.strictObject({
    id,
    author: z.string().min(1),
    rating: z.number().min(1).max(5),
    body: z.string().min(1),
    date: isoDate,
    city: id,
    /** Placeholder review: shown labelled as a sample, never marked up; the build warns. */
    sample: z.boolean().default(false),
  }),
);

export const ctaSchema = z.strictObject({
  variants: z.array(z.strictObject({ id, icon: z.string().min(1), color: z.string().regex(/^#[0-9a-f]{6}$/i) })).min(1),
  defaultVariant: id,
  /** Language of the WhatsApp message (its option labels come from this language's table). */
  messageLanguage: langCode,
  /** WhatsApp message templates; `{city}` in an intro is the city line, `{value}` a field's value. */
  messages: z.strictObject({
    intro: z.record(id, z.string().min(1)),
    /** The city line of a page about a city: `{city}` is the city's name (city.<id>.name) in the message language. */
    cityLine: z.string().includes('{city}', { message: 'a text containing {city}' }),
    fields: z.record(id, z.string().min(1)),
    reference: z.string().min(1),
  }),
});

export const citiesSchema = z.array(
  z.strictObject({
    id,
    /** URL path of the city's page, built in every language (its page id is the city id). */
    path: routePath,
    timezone: z.string().refine(isTimeZone, 'an IANA time zone like Europe/Madrid'),
    status: z.enum(['active', 'upcoming']),
    /** Gallery image id (data/gallery.yaml) shown on the city page. */
    image: id.optional(),
    areas: z.array(id).default([]),
    /** Milestones of an upcoming city; a date in the past is a stale-content warning. */
    timeline: z.array(z.strictObject({ id, due: isoDate })).default([]),
  }),
);

export const healthSchema = z.strictObject({
  intervalMonths: z.number().int().positive(),
  lastUpdate: isoDate,
});

export const businessSchema = z.strictObject({
  type: z.string().min(1),
  priceRange: z.string().min(1),
  currency: z.string().regex(/^[A-Z]{3}$/),
  paymentAccepted: z.array(z.string().min(1)).min(1),
  open247: z.boolean(),
  /** Rate tier ids offered in the markup; their prices come from rates.yaml, so they are on the rates page. */
  offers: z.array(id),
  /** The page (pages.yaml id) whose URL each offer links: where every offered price is shown. */
  offersPage: id,
  /** Page ids that carry the business markup (every city page carries it too). */
  pages: z.array(id),
});

export const legalSchema = z.strictObject({
  operator: z.string().min(1),
  taxId: z.string().min(1),
  address: z.string().min(1),
  email: z.email(),
  jurisdiction: z.string().min(1),
  /** Supervisory authorities the privacy policy names (the visitor may complain to their own country's). */
  authorities: z
    .array(
      z.strictObject({
        /** ISO 3166-1 alpha-2 code; the page shows the country's name in the page's language. */
        country: z.string().regex(/^[A-Z]{2}$/, 'an ISO country code like ES'),
        name: z.string().min(1),
        url,
      }),
    )
    .min(1),
  /** The EDPB's list of every EU/EEA authority, for visitors from countries not named above. */
  authoritiesList: url,
  /** Analytics processors by provider id (site.yaml analytics.provider), named when one is configured. */
  processors: z.strictObject({
    ga4: z.strictObject({ name: z.string().min(1), url }),
    plausible: z.strictObject({ name: z.string().min(1), url }),
  }),
});

export const trackingSchema = z.strictObject({
  /** utm_source values of the directory listings. */
  directorySources: z.array(id),
  /** Sources whose visitors get the direct_action call-to-action. */
  directActionSources: z.array(id),
  /** Referrer host (suffix) → source name, reported with medium "referral". */
  referrers: z.record(z.string().min(1), id),
  attributionDays: z.number().int().positive(),
});

/** A text table: nested maps of strings, flattened to dotted keys. */
export type TextTree = { [key: string]: string | TextTree };
