/** Stage "check": content warnings the operator needs before visitors notice. */
import type { Diagnostics } from '../diagnostics.ts';
import type { Site } from './model.ts';
import { UNTRANSLATED } from './untranslated.ts';

/** Longest title search engines show in full (also html-validate's long-title limit). */
export const TITLE_LIMIT = 70;

/** Add months to a YYYY-MM-DD date (clamped to the month's last day). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

function valueAtPath(root: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined), root);
}

/** Missing keys per language, compared with the default language's table. */
export function missingTranslations(site: Site): Map<string, string[]> {
  const reference = Object.keys(site.texts[site.defaultLanguage] ?? {});
  const out = new Map<string, string[]>();
  for (const lang of site.languages) {
    if (lang === site.defaultLanguage) continue;
    const table = site.texts[lang] ?? {};
    const missing = reference.filter((k) => table[k] === undefined);
    if (missing.length) out.set(lang, missing);
  }
  return out;
}

/** Posts that exist in some language but not in another: slug → missing languages. */
export function missingPosts(site: Site): Map<string, string[]> {
  const bySlug = new Map<string, Set<string>>();
  for (const p of site.posts) (bySlug.get(p.slug) ?? bySlug.set(p.slug, new Set()).get(p.slug)!).add(p.lang);
  const out = new Map<string, string[]>();
  for (const [slug, langs] of bySlug) {
    const missing = site.languages.filter((l) => !langs.has(l));
    if (missing.length) out.set(slug, missing);
  }
  return out;
}

const list = (keys: string[], max = 8) => keys.slice(0, max).join(', ') + (keys.length > max ? `, … (${keys.length - max} more)` : '');

/** Report stale time-bound content, samples still in use, missing translations and public admin pages. */
export function checkContent(site: Site, diags: Diagnostics): void {
  const due = addMonths(site.health.lastUpdate, site.health.intervalMonths);
  if (due < site.today) {
    diags.warn({
      code: 'stale',
      file: 'data/health.yaml',
      field: 'lastUpdate',
      message: `medical checks are every ${site.health.intervalMonths} months; the last update (${site.health.lastUpdate}) was due again on ${due} (the site no longer shows a next check date): update the date after the next check`,
    });
  }
  for (const city of site.cities) {
    for (const m of city.timeline) {
      if (m.due < site.today)
        diags.warn({
          code: 'stale',
          file: 'data/cities.yaml',
          field: `${city.id}.timeline.${m.id}`,
          message: `launch milestone "${m.id}" was due ${m.due}, before today (${site.today}): the page leaves it out until the timeline is updated`,
        });
    }
  }

  const roots = { site: site.config, ...site } as unknown;
  const inUse = site.config.samples.filter((s) => valueAtPath(roots, s.field) === s.value);
  if (inUse.length)
    diags.warn({
      code: 'sample',
      file: 'site.yaml',
      field: 'samples',
      message: `${inUse.length} sample value(s) still in use; replace them before publishing: ${inUse.map((s) => `${s.field} = ${JSON.stringify(s.value)}`).join('; ')}`,
    });
  const samples = site.reviews.filter((r) => r.sample);
  if (samples.length)
    diags.warn({
      code: 'sample',
      file: 'data/reviews.yaml',
      field: 'sample',
      message: `${samples.length} sample review(s) (${samples.map((r) => r.id).join(', ')}) are shown labelled as samples and never marked up: replace them with real reviews`,
    });

  for (const [lang, keys] of missingTranslations(site))
    diags.warn({ code: 'missing-translation', file: `i18n/${lang}.yaml`, message: `${keys.length} key(s) missing in ${lang} (shown as the key): ${list(keys)}` });
  for (const [lang, keys] of Object.entries(site.untranslated))
    if (keys.length) diags.warn({ code: 'untranslated', file: `i18n/${lang}.yaml`, message: `${keys.length} untranslated key(s) in ${lang} (marked ${JSON.stringify(UNTRANSLATED.trim())}; the text after the mark is shown meanwhile): ${list([...keys])}` });
  for (const [slug, langs] of missingPosts(site))
    diags.warn({ code: 'missing-translation', file: `blog/${slug}`, message: `post not translated into ${langs.join(', ')}: not built in ${langs.length > 1 ? 'those languages' : 'that language'}` });

  for (const post of site.posts)
    if (post.title.length > TITLE_LIMIT)
      diags.warn({ code: 'long-title', file: post.file, field: 'title', message: `${post.title.length} characters; search engines show about ${TITLE_LIMIT}` });

  if (site.config.features.admin)
    diags.warn({
      code: 'admin-public',
      file: 'site.yaml',
      field: 'features.admin',
      message: 'admin pages are built and PUBLIC: a static host cannot protect them (they hold no secrets, and are noindex)',
    });
}
