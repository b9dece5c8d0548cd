/**
 * `site new city <id>`: an entry in data/cities.yaml, its page in pages.yaml, its call-to-action
 * city line, and its texts in every language, drafted from the first city and marked untranslated.
 */
import { isMap, isScalar, isSeq, type Document, type YAMLMap } from 'yaml';
import { markUntranslated, UNTRANSLATED } from '../content/untranslated.ts';
import { readDoc, writeContent } from './content-files.ts';
import { markAll } from './new-language.ts';
import { UsageError } from './usage.ts';

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
  try {
    new Intl.DateTimeFormat('en', { timeZone: opts.timezone });
  } catch {
    throw new UsageError(`--timezone "${opts.timezone}" is not an IANA time zone such as Europe/Madrid`);
  }
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
  const rows = list.toJSON() as { id: string; page?: string; path?: string }[];
  const pageRows = pageList.toJSON() as { id: string; path: string; template: string }[];
  if (rows.some((c) => c.id === id)) throw new UsageError(`data/cities.yaml already has a city "${id}"`);
  if (pageRows.some((p) => p.id === id)) throw new UsageError(`pages.yaml already has a page "${id}"`);
  if ([...pageRows, ...rows].some((p) => p.path === routePath)) throw new UsageError(`a page is already at ${routePath} (choose another with --path)`);
  const model = rows[0];
  // Two content shapes: a city with its own `path` (its page follows from the entry), or a city
  // naming a page of pages.yaml (`page`), which then gets a page entry too.
  const ownPath = !model || model.path !== undefined;
  const modelPageId = ownPath ? model?.id : model.page;
  const changed = ['data/cities.yaml'];
  list.add(cities.createNode(ownPath ? { id, path: routePath, timezone: opts.timezone, status } : { id, page: id, timezone: opts.timezone, status }, { flow: false }));
  writeContent(contentDir, 'data/cities.yaml', cities);
  if (!ownPath) {
    const modelPage = pageRows.find((p) => p.id === model.page);
    pageList.add(pages.createNode({ id, path: routePath, template: modelPage?.template ?? 'city' }, { flow: true }));
    writeContent(contentDir, 'pages.yaml', pages);
    changed.push('pages.yaml');
  }

  const defaultLanguage = String(site.get('defaultLanguage'));
  const languages = (site.get('languages', true) as { toJSON(): string[] } | undefined)?.toJSON() ?? [defaultLanguage];
  for (const lang of languages) {
    const rel = `i18n/${lang}.yaml`;
    const table = readDoc(contentDir, rel);
    const modelName = model ? String(table.getIn(['city', model.id, 'name']) ?? '').replace(UNTRANSLATED, '') : '';
    for (const [group, modelKey] of [['city', model?.id], ['page', modelPageId]] as const) {
      const m = modelKey ? table.getIn([group, modelKey]) : undefined;
      const draft = isMap(m) ? draftFrom(m, table, modelName, name) : (table.createNode({ title: markUntranslated(name) }) as YAMLMap);
      if (group === 'city') draft.set('name', lang === defaultLanguage ? name : markUntranslated(name));
      table.setIn([group, id], draft);
    }
    writeContent(contentDir, rel, table);
    changed.push(rel);
  }

  // The WhatsApp message's city line, drafted from the model city's (in the message language).
  const cta = readDoc(contentDir, 'data/cta.yaml');
  const lines = cta.getIn(['messages', 'city']);
  if (isMap(lines) && model && !lines.has(id)) {
    const messageLanguage = String(cta.get('messageLanguage'));
    const table = readDoc(contentDir, `i18n/${messageLanguage}.yaml`);
    const modelName = String(table.getIn(['city', model.id, 'name']) ?? '').replace(UNTRANSLATED, '');
    const line = lines.get(model.id);
    lines.set(id, isScalar(line) || typeof line === 'string' ? String(isScalar(line) ? line.value : line).split(modelName).join(name) : ` ${name}`);
    writeContent(contentDir, 'data/cta.yaml', cta);
    changed.push('data/cta.yaml');
  }
  return changed;
}
