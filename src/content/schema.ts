/**
 * The shape of every content file, as zod schemas. Objects are strict: an unknown key is an
 * error naming the key, so a typo never passes silently.
 */
// Named imports, not the `z` namespace: the namespace keeps all of zod in the CLI bundle (its 40
// locales included: 814 KB of a 1.5 MB bundle, parsed at every start); these are what the schemas use.
import { HOSTS } from '../output/hosts/names.ts';
import { array, boolean, config as zodConfig, discriminatedUnion, enum as enumOf, literal, number, record, strictObject, string, url as urlOf, type RefinementCtx, type ZodType } from 'zod';

/** ISO 4217 codes (the platform's list): a typo such as EUO would be published as a price's currency. */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** What a colour field expects. */
const COLOUR = 'a colour written #rrggbb, such as #8a5a44';
// Zod compiles each object schema into a function (new Function) the first time it parses: a cost
// a one-shot build pays for a handful of files. Interpreted, the shipped site's load stage took a
// median ~120 against ~140 ms, and 4,000 posts parsed without the posts' cache 308-386 against
// 351-870 ms (2026-11-26, alternating runs, load ~4).
zodConfig({ jitless: true });

const z = { array, boolean, discriminatedUnion, enum: enumOf, literal, number, record, strictObject, string, url: urlOf };

const id = z.string().regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'a lowercase id (letters, digits, - or _)');
const langCode = z.string().regex(/^[a-z]{2,3}(?:-[A-Z]{2})?$/, 'a language code such as en, es or pt-BR');
/** True for a day that exists (or text that is not YYYY-MM-DD at all): 2024-02-29 yes, 2025-02-30 and 2026-13-45 no. */
export function isRealDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return true; // the pattern's own message covers it
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
/** True for a time zone the platform knows (IANA: Europe/Paris, America/Argentina/Buenos_Aires, UTC). */
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
  .regex(/^\/(?:(?:[a-z0-9][a-z0-9._-]*|\{[a-zA-Z]+\})(?:\/(?:[a-z0-9][a-z0-9._-]*|\{[a-zA-Z]+\}))*)?$/, 'a root-relative path in lowercase without trailing slash, like /about');
const url = z.url({ protocol: /^https?$/, error: 'an absolute http(s) URL' });
const phone = z.string().regex(/^\+[0-9 ]{8,20}$/, 'an international phone number like +34 600 000 000');
/** An amount in whole euros: above zero and at most 100,000 (a larger figure is a typo, not a rate). */
const price = z.number().int('a whole number').min(1, 'a price above 0 (leave it "on request" instead)').max(100_000, 'a price of at most 100,000 (more is a typo)');

/** The fields of `content/site.yaml` every site has (a site's model may add its own). */
export const siteFields = {
  brand: z.string().min(1),
  // The base of every canonical and sitemap URL: a path may follow, a query or fragment may not.
  baseUrl: url.refine((u) => !/[?#]/.test(u), 'an absolute http(s) URL without a ?query or #fragment'),
  /** Browser UI colours (web manifest, theme-color meta). */
  colors: z.strictObject({ theme: z.string().regex(/^#[0-9a-f]{6}$/i, COLOUR), background: z.string().regex(/^#[0-9a-f]{6}$/i, COLOUR) }),
  languages: z.array(langCode).min(1).superRefine(unique()),
  defaultLanguage: langCode,
  /**
   * Languages still being translated (not in `languages`): built by `site watch` and `--drafts`
   * for review, left out of a published build until they move to `languages`.
   */
  draftLanguages: z.array(langCode).superRefine(unique()).default([]),
  /** Prefix of every browser-storage key (`<prefix>.lang`, `<prefix>.consent`…): product-specific, so nothing clashes. */
  storageKey: z.string().regex(/^[a-z0-9._-]+$/),
  /** ISO 4217 code of every price on the site (formatted per language). */
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 currency code like EUR').refine((c) => !/^[A-Z]{3}$/.test(c) || CURRENCIES.has(c), 'an ISO 4217 currency code like EUR'),
  social: z.record(id, url).default({}),
  /** admin: build the admin pages (public: a static host cannot protect them); consent: nothing non-essential before Accept. */
  features: z.strictObject({
    admin: z.boolean().default(false),
    consent: z.boolean().default(true),
  }),
  /**
   * The RTA label of a site for adults only (rtalabel.org): sent as the Rating header and meta so
   * parental filters block the site. Leave it out for a site anyone may see.
   */
  rtaLabel: z.string().regex(/^RTA-[0-9A-Z-]+-RTA$/, 'an RTA label like RTA-5042-1996-1400-1577-RTA').optional(),
  analytics: z.discriminatedUnion('provider', [
    z.strictObject({ provider: z.literal('none') }),
    z.strictObject({ provider: z.literal('ga4'), id: z.string().regex(/^G-[A-Z0-9]+$/, 'a GA4 id like G-XXXXXXX') }),
    z.strictObject({ provider: z.literal('plausible'), domain: z.string().min(1), src: url.optional() }),
  ]),
  /** Placeholder values shipped with the site: the build warns while a field still holds one. */
  samples: z.array(z.strictObject({ field: z.string().min(1), value: z.string() })).default([]),
  /** Where the site is deployed: the host whose files the build writes (`site build --host` wins). */
  deploy: z.strictObject({ host: z.enum(HOSTS) }).optional(),
};

/** `content/site.yaml` of a site without fields of its own. */
export const siteSchema = z.strictObject(siteFields);

/**
 * `content/site.yaml` with the fields a site's model adds (its own `features` replaces the
 * generic one, which it must then include: admin and consent).
 */
export function siteSchemaWith(extra: Record<string, ZodType> | undefined): typeof siteSchema {
  return (extra ? z.strictObject({ ...siteFields, ...extra }) : siteSchema) as typeof siteSchema;
}

/**
 * A check for a list (`z.array(…).superRefine(unique('id'))`): no two items with the same `key`
 * (or, without a key, no item twice in a list of ids). A duplicate is an error where it stands,
 * naming the first: two entries with one id would otherwise share their texts, and one of them
 * would be chosen silently (two options of a form sent with one value, two pictures with one caption).
 */
function unique(key?: string): (list: readonly unknown[], ctx: RefinementCtx<unknown[]>) => void {
  return (list, ctx) => {
    const seen = new Map<string, number>();
    list.forEach((item, i) => {
      const value = key === undefined ? item : (item as Record<string, unknown> | null)?.[key];
      if (typeof value !== 'string') return;
      const first = seen.get(value);
      if (first === undefined) seen.set(value, i);
      else ctx.addIssue({ code: 'custom', path: key === undefined ? [i] : [i, key], message: `duplicate ${key ?? 'entry'} "${value}" (first used at [${first}])`, params: { diagnostic: 'duplicate' } });
    });
  };
}

/** Field types a site's model builds its schemas from, with the messages every content file shares. */
export const fields = { id, langCode, isoDate, routePath, url, phone, price, timeZone: () => z.string().refine(isTimeZone, 'an IANA time zone like Europe/Paris'), colour: () => z.string().regex(/^#[0-9a-f]{6}$/i, COLOUR), unique };

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
  categories: z.array(id).min(1).superRefine(unique()),
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

/** A text table: nested maps of strings, flattened to dotted keys. */
export type TextTree = { [key: string]: string | TextTree };
