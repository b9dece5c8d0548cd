/**
 * The shape of this site's own content files, as zod schemas (the generator's own files — site.yaml's
 * common fields, pages, posts, redirects, texts — are checked by the generator). Objects are
 * strict: an unknown key is an error naming the key, so a typo never passes silently.
 */
import { array, boolean, email, number, record, strictObject, string, union, enum as enumOf } from 'zod';
import { fields } from '@site/api';

const z = { array, boolean, email, number, record, strictObject, string, union, enum: enumOf };
const { id, langCode, isoDate, routePath, url, phone, price, unique } = fields;

/** What this site adds to `content/site.yaml`: the provider, contact details, its features. */
export const configFields = {
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
  features: z.strictObject({
    admin: z.boolean(),
    consent: z.boolean(),
    /** The footer's second line under the brand. */
    footerSubtitle: z.boolean(),
  }),
};

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
  ).superRefine(unique('id')),
  included: z.array(id).superRefine(unique()),
  requirements: z.array(id).superRefine(unique()),
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
  ).superRefine(unique('id')),
  extras: z.array(z.strictObject({ id, duration: id, price })).superRefine(unique('id')),
});

export const bookingSchema = z.strictObject({
  /** Whole hours, from 1 to a week: "at least 0 hours" would tell visitors nothing. */
  minAdvanceHours: z.number().int('whole hours').min(1, 'at least 1 hour').max(168, 'at most 168 hours (a week)'),
  confirmationMinutes: z.number().int().positive(),
  /** Durations offered (labels: booking.duration.<id>); price and "on request" come from the rate tier. */
  durations: z.array(z.strictObject({ id, tier: id })).min(1).superRefine(unique('id')),
  locations: z.array(id).min(1).superRefine(unique()),
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
    features: z.array(id).superRefine(unique()),
  }),
);

export const galleryImage = z.strictObject({
  id,
  category: id,
  file: z.string().regex(/^[a-z0-9/_-]+\.(?:jpe?g|png|webp|avif|svg)$/, 'an image file under content/images'),
});

export const gallerySchema = z.strictObject({
  categories: z.array(id).min(1).superRefine(unique()),
  /** Open Graph / Twitter preview image. */
  socialImage: galleryImage.omit({ category: true }),
  /** Portraits used on the about page and in the hero. */
  portraits: z.array(galleryImage.omit({ category: true })).superRefine(unique('id')),
  images: z.array(galleryImage).superRefine(unique('id')),
  featured: z.array(galleryImage).superRefine(unique('id')),
}).superRefine((gallery, ctx) => {
  // Portraits, pictures and featured ones share one set of texts (gallery.image.<id>): an id used in two lists gives both one caption.
  const seen = new Map<string, string>();
  for (const list of ['portraits', 'images', 'featured'] as const)
    gallery[list].forEach((img, i) => {
      const first = seen.get(img.id);
      if (first === undefined) seen.set(img.id, `${list}[${i}]`);
      else if (!first.startsWith(`${list}[`)) ctx.addIssue({ code: 'custom', path: [list, i, 'id'], message: `duplicate id "${img.id}" (first used at ${first}): its texts (gallery.image.${img.id}) would caption both`, params: { diagnostic: 'duplicate' } });
    });
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
  variants: z.array(z.strictObject({ id, icon: z.string().min(1), color: fields.colour() })).min(1).superRefine(unique('id')),
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
    timezone: fields.timeZone(),
    status: z.enum(['active', 'upcoming']),
    /** Being prepared: built by site watch and --drafts, left out of a published build (its page, booking option, lists). */
    draft: z.boolean().default(false),
    /** Gallery image id (data/gallery.yaml) shown on the city page. */
    image: id.optional(),
    areas: z.array(id).superRefine(unique()).default([]),
    /** Milestones of an upcoming city; a date in the past is a stale-content warning. */
    timeline: z
      .array(
        z
          .strictObject({
            id,
            due: isoDate,
            /** How the date is shown: a quarter ("Q3 2027", the default), a month, or the day itself. */
            show: z.enum(['quarter', 'month', 'day']).default('quarter'),
            /** The last day of a span that ends later than `due` (shown as a range by month or day). */
            until: isoDate.optional(),
          })
          .refine((m) => !m.until || m.until >= m.due, 'until is not before due'),
      )
      .superRefine(unique('id'))
      .default([]),
  }),
);

export const healthSchema = z.strictObject({
  intervalMonths: z.number().int().positive(),
  lastUpdate: isoDate,
});

export const businessSchema = z.strictObject({
  type: z.string().min(1),
  priceRange: z.string().min(1),
  paymentAccepted: z.array(z.string().min(1)).min(1),
  open247: z.boolean(),
  /** Rate tier ids offered in the markup; their prices come from rates.yaml, so they are on the rates page. */
  offers: z.array(id).superRefine(unique()),
  /** The page (pages.yaml id) whose URL each offer links: where every offered price is shown. */
  offersPage: id,
  /** Page ids that carry the business markup (every city page carries it too). */
  pages: z.array(id).superRefine(unique()),
});

export const legalSchema = z.strictObject({
  operator: z.string().min(1),
  taxId: z.string().min(1),
  address: z.string().min(1),
  email: z.email(),
  jurisdiction: z.string().min(1),
  /**
   * When each page last changed, shown as its "Last updated" date: the operator's date, never the
   * build's (which would change the page on every build).
   */
  updated: z.strictObject({ privacy: isoDate, legal: isoDate }),
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
  directorySources: z.array(id).superRefine(unique()),
  /** Sources whose visitors get the direct_action call-to-action. */
  directActionSources: z.array(id).superRefine(unique()),
  /** Referrer host (suffix) → source name, reported with medium "referral". */
  referrers: z.record(z.string().min(1), id),
  attributionDays: z.number().int().positive(),
});

