/**
 * The shipped content's facts, read from its YAML (SHIPPED_CONTENT, so SITE_CONTENT swaps them):
 * tests of the shipped site compute what a page must show from these, never from literals.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { EPOCH, SHIPPED_CONTENT } from './site.ts';

/** YAML of any shape: tests read what they need. */
type Any = any;

/** Parse one YAML file of the content folder. */
export function yaml(rel: string, dir = SHIPPED_CONTENT): Any {
  return parse(readFileSync(path.join(dir, rel), 'utf8'));
}

/** `{a: {b: 'x'}}` → `{'a.b': 'x'}`. */
export function flatten(tree: Record<string, unknown>, prefix = '', acc: Record<string, string> = {}): Record<string, string> {
  for (const [k, v] of Object.entries(tree ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key, acc);
    else acc[key] = String(v);
  }
  return acc;
}

/** Everything a shipped-site test may need to know about the content, loaded once. */
export interface ShippedContent {
  dir: string;
  site: Any;
  pages: Any[];
  /** The published languages (site.yaml languages; draftLanguages are a list of their own). */
  languages: string[];
  defaultLanguage: string;
  /** Languages other than the default. */
  others: string[];
  rates: Any;
  booking: Any;
  services: Any;
  cities: Any[];
  reviews: Any[];
  redirects: Any[];
  directories: Any[];
  venues: Any[];
  gallery: Any;
  blog: Any;
  business: Any;
  health: Any;
  /** Post slugs with the languages each exists in (drafts and future posts included). */
  posts: Map<string, string[]>;
  /** Flattened text table of a language. */
  texts(lang: string): Record<string, string>;
  /** BCP 47 locale of a language (its table's lang.locale). */
  locale(lang: string): string;
  /** An amount in the site's currency as the build formats it for `lang`. */
  money(amount: number, lang: string): string;
  /** The dist file of a path in a language: ('/rates', 'es') → 'es/rates.html'. */
  file(routePath: string, lang: string): string;
  /** The path of page `id` (pages.yaml). */
  pagePath(id: string): string;
}

let cached: ShippedContent | undefined;

/** The shipped content (SHIPPED_CONTENT), parsed once per test file. */
export function shipped(): ShippedContent {
  if (cached) return cached;
  const dir = SHIPPED_CONTENT;
  const site = yaml('site.yaml');
  const data = (name: string) => yaml(`data/${name}.yaml`);
  const tables = new Map<string, Record<string, string>>();
  const texts = (lang: string) => tables.get(lang) ?? tables.set(lang, flatten(yaml(`i18n/${lang}.yaml`))).get(lang)!;
  const blogDir = path.join(dir, 'blog');
  const posts = new Map<string, string[]>();
  if (existsSync(blogDir))
    for (const slug of readdirSync(blogDir).sort())
      posts.set(slug, readdirSync(path.join(blogDir, slug)).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort());
  const business = data('business');
  const locale = (lang: string) => texts(lang)['lang.locale'] ?? lang;
  const file = (routePath: string, lang: string) => {
    const prefixed = lang === site.defaultLanguage ? routePath : routePath === '/' ? `/${lang}` : `/${lang}${routePath}`;
    return prefixed === '/' ? 'index.html' : `${prefixed.slice(1)}.html`;
  };
  cached = {
    dir,
    site,
    pages: yaml('pages.yaml'),
    pagePath: (id: string) => (yaml('pages.yaml') as { id: string; path: string }[]).find((p) => p.id === id)!.path,
    languages: site.languages,
    defaultLanguage: site.defaultLanguage,
    others: site.languages.filter((l: string) => l !== site.defaultLanguage),
    rates: data('rates'),
    booking: data('booking'),
    services: data('services'),
    cities: data('cities'),
    reviews: data('reviews') ?? [],
    redirects: data('redirects') ?? [],
    directories: data('directories') ?? [],
    venues: data('venues') ?? [],
    gallery: data('gallery'),
    blog: data('blog'),
    business,
    health: data('health'),
    posts,
    texts,
    locale,
    money: (amount, lang) =>
      new Intl.NumberFormat(locale(lang), { style: 'currency', currency: site.currency, maximumFractionDigits: 0 }).format(amount),
    file,
  };
  return cached;
}

/** The posts a build publishes in `lang` (not drafts, not dated after the build's day): slug, title, category. */
export function publishedPosts(lang: string, dir = SHIPPED_CONTENT, today = new Date(Number(EPOCH) * 1000).toISOString().slice(0, 10)): { slug: string; title: string; category: string }[] {
  const blog = path.join(dir, 'blog');
  if (!existsSync(blog)) return [];
  return readdirSync(blog)
    .filter((slug) => existsSync(path.join(blog, slug, `${lang}.md`)))
    .map((slug) => {
      const matter = parse(/^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(path.join(blog, slug, `${lang}.md`), 'utf8'))![1]!) as { title: string; category: string; date: string | Date; draft?: boolean };
      const date = matter.date instanceof Date ? matter.date.toISOString().slice(0, 10) : String(matter.date);
      return { slug, title: matter.title, category: matter.category, date, draft: matter.draft === true };
    })
    .filter((p) => !p.draft && p.date <= today)
    .map(({ slug, title, category }) => ({ slug, title, category }));
}

/**
 * `text` of language `lang` with its `{cities:…}` lists written out as a page shows them: the cities
 * of data/cities.yaml (not drafts) in their order, each in the form the reference names
 * (city.<id>.in|from|of, else its name), joined with Intl.ListFormat (`line`: " · ").
 */
export function withCityLists(text: string, lang: string, dir = SHIPPED_CONTENT): string {
  if (!text.includes('{cities:')) return text;
  const table = flatten(yaml(`i18n/${lang}.yaml`, dir));
  const cities = (yaml('data/cities.yaml', dir) as { id: string; status: string; draft?: boolean }[]).filter((c) => !c.draft);
  return text.replace(/\{cities:(\w+)\}/g, (_m, ref: string) => {
    const m = /^(active|upcoming)?(names|in|from|of|line)?$/i.exec(ref.replace(/^(active|upcoming)([A-Z])/, (_x, a: string, b: string) => a + b.toLowerCase()))!;
    const rows = m[1] ? cities.filter((c) => c.status === m[1]) : cities;
    const form = (m[2] ?? 'names').toLowerCase();
    const names = rows.map((c) => (form !== 'names' && form !== 'line' ? table[`city.${c.id}.${form}`] : undefined) ?? table[`city.${c.id}.name`]!);
    return form === 'line' ? names.join(' · ') : new Intl.ListFormat(table['lang.locale'], { style: 'long', type: 'conjunction' }).format(names);
  });
}
