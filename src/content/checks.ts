/** Stage "check": content warnings the operator needs before visitors notice. */
import type { Diagnostics } from '../diagnostics.ts';
import type { Site, SiteModel } from './model.ts';
import { siteReport } from './load.ts';
import { UNTRANSLATED } from './untranslated.ts';

/** Longest title search engines show in full (also html-validate's long-title limit). */
export const TITLE_LIMIT = 70;

function valueAtPath(root: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined), root);
}

/**
 * Whether a text key belongs to a draft entry this build leaves out (load.ts): its missing keys and
 * untranslated marks are the draft's, not warnings of the build (--strict).
 */
const leftOut = (site: Site, key: string) => site.leftOutTexts?.some((p) => key.startsWith(p)) ?? false;

/** Missing keys per language, compared with the default language's table. */
export function missingTranslations(site: Site): Map<string, string[]> {
  const reference = Object.keys(site.texts[site.defaultLanguage] ?? {}).filter((k) => !leftOut(site, k));
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

/** Report the model's content warnings (stale dates), samples still in use, missing translations and public admin pages. */
export function checkContent(site: Site, model: SiteModel, diags: Diagnostics): void {
  model.warnings?.(site, siteReport(site, diags));

  const roots = { site: site.config, ...site.data } as unknown;
  const inUse = site.config.samples.filter((s) => valueAtPath(roots, s.field) === s.value);
  if (inUse.length)
    diags.warn({
      code: 'sample',
      file: 'site.yaml',
      field: 'samples',
      message: `${inUse.length} sample value(s) still in use; replace them before publishing: ${list(inUse.map((s) => s.field), 4)} (--verbose lists each)`,
      details: inUse.map((s) => `${s.field} = ${JSON.stringify(s.value)}`),
    });

  for (const [lang, keys] of missingTranslations(site))
    diags.warn({ code: 'missing-translation', file: `i18n/${lang}.yaml`, message: `${keys.length} key(s) missing in ${lang} (shown as the key): ${list(keys)}`, details: keys });
  for (const [lang, marked] of Object.entries(site.untranslated)) {
    const keys = marked.filter((k) => !leftOut(site, k));
    if (keys.length) diags.warn({ code: 'untranslated', file: `i18n/${lang}.yaml`, message: `${keys.length} untranslated key(s) in ${lang} (marked ${JSON.stringify(UNTRANSLATED.trim())}; the text after the mark is shown meanwhile): ${list(keys)}`, details: keys });
  }
  for (const [slug, langs] of missingPosts(site))
    diags.warn({ code: 'missing-translation', file: `blog/${slug}`, message: `post not published in ${langs.join(', ')} (no file, or a draft or scheduled one): not built in ${langs.length > 1 ? 'those languages' : 'that language'}` });

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
