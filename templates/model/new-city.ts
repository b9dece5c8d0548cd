/**
 * `site new city <id>`: an entry in data/cities.yaml (its page, booking option, listings and
 * WhatsApp city line follow from it) and its texts in every language, drafted from the first city
 * and marked untranslated.
 */
import { isMap, isSeq, type Document, type YAMLMap } from 'yaml';
import { fields, markAll, markUntranslated, readDoc, UNTRANSLATED, UsageError, writeContent } from '@site/api';

export interface NewCityOptions {
  timezone: string;
  /** The city's name in the default language (default: the id, capitalised). */
  name?: string;
  /** URL path of its page (default: /<id>). */
  path?: string;
  status?: 'active' | 'upcoming';
}

/** A draft for the new city: the model city's texts with its name replaced, marked untranslated. */
function draftFrom(model: YAMLMap, doc: Document, from: string, to: string): YAMLMap {
  const copy = doc.createNode(model.toJSON()) as YAMLMap;
  for (const skip of ['area', 'areaText', 'timeline']) copy.delete(skip); // the new city lists its own
  const swap = (v: unknown) => (typeof v === 'string' && from ? v.split(from).join(to) : v);
  const draft = doc.createNode(JSON.parse(JSON.stringify(copy.toJSON(), (_k, v: unknown) => swap(v)))) as YAMLMap;
  markAll(draft);
  return draft;
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

  const cities = readDoc(contentDir, 'data/cities.yaml');
  const pages = readDoc(contentDir, 'pages.yaml');
  const site = readDoc(contentDir, 'site.yaml');
  const list = cities.contents;
  const pageList = pages.contents;
  if (!isSeq(list) || !isSeq(pageList)) throw new UsageError('data/cities.yaml and pages.yaml must be lists');
  const rows = list.toJSON() as { id: string; path: string }[];
  const pageRows = pageList.toJSON() as { id: string; path: string; template: string }[];
  if (rows.some((c) => c.id === id)) throw new UsageError(`data/cities.yaml already has a city "${id}"`);
  if (pageRows.some((p) => p.id === id)) throw new UsageError(`pages.yaml already has a page "${id}"`);
  if ([...pageRows, ...rows].some((p) => p.path === routePath)) throw new UsageError(`a page is already at ${routePath} (choose another with --path)`);
  const model = rows[0];
  const changed = ['data/cities.yaml'];
  // A draft until its texts are written: site watch shows it, a published build leaves it out.
  list.add(cities.createNode({ id, path: routePath, timezone: opts.timezone, status, draft: true }, { flow: false }));
  writeContent(contentDir, 'data/cities.yaml', cities);

  const defaultLanguage = String(site.get('defaultLanguage'));
  const languages = (site.get('languages', true) as { toJSON(): string[] } | undefined)?.toJSON() ?? [defaultLanguage];
  for (const lang of languages) {
    const rel = `i18n/${lang}.yaml`;
    const table = readDoc(contentDir, rel);
    const modelName = model ? String(table.getIn(['city', model.id, 'name']) ?? '').replace(UNTRANSLATED, '') : '';
    for (const group of ['city', 'page'] as const) {
      const m = model ? table.getIn([group, model.id]) : undefined;
      const draft = isMap(m) ? draftFrom(m, table, modelName, name) : (table.createNode({ title: markUntranslated(name) }) as YAMLMap);
      if (group === 'city') draft.set('name', lang === defaultLanguage ? name : markUntranslated(name));
      table.setIn([group, id], draft);
    }
    writeContent(contentDir, rel, table);
    changed.push(rel);
  }
  return changed;
}
