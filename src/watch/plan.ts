/**
 * Which routes a change affects (the watch dependency graph, as rules):
 * - a post `blog/<slug>/<lang>.md`: that post in every language (its hreflang set may change),
 *   and its language's blog list, category pages and admin pages (they list or count posts);
 * - a text table `i18n/<lang>.yaml`: every page of that language, unless a changed key is read
 *   by every language (a language's own name in the switcher, and what the site's model names:
 *   here the message language's option labels in every page's client data): then everything;
 * - anything else (site.yaml, pages.yaml, data/, images/, templates/, client/): everything.
 */
import path from 'node:path';
import type { Site, SiteModel } from '../content/model.ts';
import type { Route } from '../routes/table.ts';

export type RouteFilter = (route: Route) => boolean;

/** Files the build reads from the content folder; anything else there changes nothing. */
export function isContentFile(rel: string): boolean {
  return /^(site|pages)\.yaml$|^(data|i18n)\/[^/]+\.yaml$|^blog\/[^/]+\/[^/]+\.md$|^images\//.test(rel);
}

/** Keys of `lang`'s table that other languages' pages also read (the model names its own). */
function sharedKey(key: string, lang: string, site: Site, model: SiteModel): boolean {
  return key === 'lang.name' || Boolean(model.sharedText?.(key, lang, site));
}

function changedKeys(before: Readonly<Record<string, string>> = {}, after: Readonly<Record<string, string>> = {}): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]);
}

/**
 * The routes to render after `changes` (absolute paths), given the site before and after.
 * Undefined means all routes.
 */
export function affectedRoutes(changes: readonly string[], contentDir: string, before: Site | undefined, after: Site, model: SiteModel): RouteFilter | undefined {
  if (!before) return undefined;
  const posts = new Set<string>();
  const listLangs = new Set<string>();
  const wholeLangs = new Set<string>();
  for (const abs of changes) {
    const rel = path.relative(contentDir, abs).split(path.sep).join('/');
    if (!rel.startsWith('..') && !isContentFile(rel)) continue; // an editor's or tool's temporary file
    const post = /^blog\/([^/]+)\/([^/]+)\.md$/.exec(rel);
    if (post) {
      posts.add(post[1]!);
      listLangs.add(post[2]!);
      continue;
    }
    const table = /^i18n\/([^/]+)\.yaml$/.exec(rel);
    if (table) {
      const lang = table[1]!;
      if (!after.languages.includes(lang)) continue; // a table of a language not built (fr): nothing to do
      if (changedKeys(before.texts[lang], after.texts[lang]).some((k) => sharedKey(k, lang, after, model))) return undefined;
      wholeLangs.add(lang);
      continue;
    }
    return undefined;
  }
  return (r) =>
    wholeLangs.has(r.lang) ||
    (r.kind === 'post' && posts.has(r.post!.slug)) ||
    (listLangs.has(r.lang) && (r.kind === 'blog' || r.kind === 'category' || r.kind === 'admin'));
}
