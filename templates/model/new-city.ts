/**
 * `site new city <id>`: an entry in data/cities.yaml (its page, booking option, listings and
 * WhatsApp city line follow from it) and its texts in every language, drafted from the first city
 * and marked untranslated.
 */
import { isMap, isSeq, type Document, type YAMLMap } from 'yaml';
import { fields, markAll, markUntranslated, readDoc, readEdit, UsageError, writeContent } from '@site/api';

export interface NewCityOptions {
  timezone: string;
  /** The city's name in the default language (default: the id, capitalised). */
  name?: string;
  /** URL path of its page (default: /<id>). */
  path?: string;
  status?: 'active' | 'upcoming';
}

/**
 * A neutral draft of the new city's texts, in the shape of the first city's (same keys, none of
 * its places): its name where a name goes (its inflected forms too: a translator writes "Вене"),
 * elsewhere a short placeholder naming the city; every text marked untranslated, areas and
 * timeline left for the operator. Copying the first city's texts put its districts on the new
 * city's page and glued Russian endings onto a foreign name ("в Viennaе").
 */
function neutralDraft(model: YAMLMap | undefined, doc: Document, name: string, group: 'city' | 'page'): YAMLMap {
  const keys = model ? (model.toJSON() as Record<string, unknown>) : {};
  const placeholder: Record<string, string> = {
    name,
    title: name,
    in: name,
    from: name,
    of: name,
    intro: `${name}: a few words on the city and on the evenings you plan there.`,
    experienceTitle: name,
    experience: `What an evening in ${name} can hold.`,
    description: `${name}: what a visitor finds on this page.`,
  };
  const draft: Record<string, string> = {};
  for (const [key, value] of Object.entries(keys)) if (typeof value === 'string') draft[key] = placeholder[key] ?? name;
  if (!Object.keys(draft).length) Object.assign(draft, group === 'city' ? { name, title: name } : { title: name, description: placeholder.description });
  const node = doc.createNode(draft) as YAMLMap;
  markAll(node);
  return node;
}

/** A list of site.yaml (languages, draftLanguages) as plain values. */
const listed = (site: ReturnType<typeof readDoc>, key: string): string[] => (site.get(key, true) as { toJSON(): string[] } | undefined)?.toJSON() ?? [];

/**
 * What else the site builds at `routePath`, if anything: a language's pages, a page with a
 * parameter (/profile/{slug}), the journal's posts and categories, a redirect, a landing page under
 * /s/, or a file the build writes itself. Refused here, before any file is changed: the next build
 * would fail on it, and the city could only be taken out again by hand.
 */
function takenBy(contentDir: string, routePath: string, pages: readonly { path: string }[], languages: readonly string[]): string | undefined {
  const first = routePath.split('/')[1]!;
  if (languages.includes(first)) return `/${first} is where the pages in ${first} are`;
  if (routePath.endsWith('/index')) return `its file would be that of ${routePath.slice(0, -'/index'.length) || '/'}`;
  const pattern = pages.find((p) => p.path.includes('{') && new RegExp(`^${p.path.replace(/\{[^}]+\}/g, '[^/]+').replace(/[.]/g, '\\.')}$`).test(routePath));
  if (pattern) return `${pattern.path} is a page`;
  const blog = String((readDoc(contentDir, 'data/blog.yaml').toJSON() as { path?: string } | null)?.path ?? '/blog');
  if (routePath === blog || routePath.startsWith(`${blog}/`)) return `the journal's posts and categories are under ${blog}`;
  const redirects = (readDoc(contentDir, 'data/redirects.yaml').toJSON() as { from: string }[] | null) ?? [];
  if (redirects.some((r) => r.from === routePath)) return 'a redirect starts there (data/redirects.yaml)';
  if (routePath === '/s' || routePath.startsWith('/s/')) return 'the landing pages are under /s/ (data/directories.yaml)';
  if (routePath === '/assets' || routePath.startsWith('/assets/') || routePath === '/404' || routePath === '/offline') return 'the build writes its own files there';
  return undefined;
}

/** Add city `id` to the content folder; returns the files changed. */
export function newCity(contentDir: string, id: string, opts: NewCityOptions): string[] {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) throw new UsageError(`"${id}" is not a city id: lowercase letters, digits and single hyphens, such as barcelona`);
  if (!fields.timeZone().safeParse(opts.timezone).success) throw new UsageError(`--timezone "${opts.timezone}" is not an IANA time zone such as Europe/Madrid`);
  const routePath = opts.path ?? `/${id}`;
  if (!/^\/[a-z0-9][a-z0-9/_-]*$/.test(routePath) || routePath.endsWith('/')) throw new UsageError(`--path "${routePath}" is not a root-relative path such as /barcelona`);
  const status = opts.status ?? 'active';
  if (status !== 'active' && status !== 'upcoming') throw new UsageError(`--status must be active or upcoming, got "${String(status)}"`);
  const name = opts.name ?? id.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

  // Every file is edited in place (what is not added stays byte for byte), and written once all
  // the edits are known to apply: a refused city changes no file.
  const cities = readEdit(contentDir, 'data/cities.yaml');
  const pages = readDoc(contentDir, 'pages.yaml');
  const site = readDoc(contentDir, 'site.yaml');
  const list = cities.doc.contents;
  const pageList = pages.contents;
  if (!isSeq(list) || !isSeq(pageList)) throw new UsageError('data/cities.yaml and pages.yaml must be lists');
  const rows = list.toJSON() as { id: string; path: string }[];
  const pageRows = pageList.toJSON() as { id: string; path: string; template: string }[];
  if (rows.some((c) => c.id === id)) throw new UsageError(`data/cities.yaml already has a city "${id}"`);
  if (pageRows.some((p) => p.id === id)) throw new UsageError(`pages.yaml already has a page "${id}"`);
  if ([...pageRows, ...rows].some((p) => p.path === routePath)) throw new UsageError(`a page is already at ${routePath} (choose another with --path)`);
  // The default language is at the root: /en is free.
  const prefixed = [...listed(site, 'languages'), ...listed(site, 'draftLanguages')].filter((l) => l !== String(site.get('defaultLanguage')));
  const clash = takenBy(contentDir, routePath, pageRows, prefixed);
  if (clash) throw new UsageError(`${routePath} is taken: ${clash} (choose another with --path)`);
  const model = rows[0];
  // A draft until its texts are written: site watch shows it, a published build leaves it out.
  cities.append([], { id, path: routePath, timezone: opts.timezone, status, draft: true });
  const edits: [string, ReturnType<typeof readEdit>][] = [['data/cities.yaml', cities]];

  const defaultLanguage = String(site.get('defaultLanguage'));
  const published = listed(site, 'languages');
  // Draft languages too: each is published once its table is complete, so it needs the city's texts.
  const languages = [...(published.length ? published : [defaultLanguage]), ...listed(site, 'draftLanguages').filter((l) => !published.includes(l))];
  for (const lang of languages) {
    const rel = `i18n/${lang}.yaml`;
    const table = readEdit(contentDir, rel);
    for (const group of ['city', 'page'] as const) {
      if (table.doc.hasIn([group, id])) throw new UsageError(`${rel} already has texts for "${id}" (${group}.${id}): remove them, or choose another id`);
      const m = model ? table.doc.getIn([group, model.id]) : undefined;
      const draft = neutralDraft(isMap(m) ? m : undefined, table.doc, name, group);
      if (group === 'city') draft.set('name', lang === defaultLanguage ? name : markUntranslated(name));
      table.put([group], id, draft);
    }
    edits.push([rel, table]);
  }
  for (const [rel, edit] of edits) writeContent(contentDir, rel, edit);
  return edits.map(([rel]) => rel);
}
