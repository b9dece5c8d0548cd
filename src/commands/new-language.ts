/** `site new language <code>`: a text table with every key of the default language, marked untranslated. */
import { isMap, isScalar, isSeq, visit, type Document, type Node } from 'yaml';
import { markUntranslated } from '../content/untranslated.ts';
import { ensureAbsent, readEdit, readText, writeContent } from './content-files.ts';
import { UsageError } from './usage.ts';

/** Languages written right to left (the table's lang.dir). */
const RTL = new Set(['ar', 'fa', 'he', 'ur', 'yi', 'ps', 'dv', 'ug', 'ku']);

/** Mark every text of a table document untranslated (keys, numbers and comments stay as they are). */
export function markAll(doc: Document | Node): number {
  let n = 0;
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.value) && typeof pair.value.value === 'string') {
        pair.value.value = markUntranslated(pair.value.value);
        n++;
      }
    },
  });
  return n;
}

export interface NewLanguageResult {
  files: string[];
  untranslated: number;
}

/**
 * Write i18n/<code>.yaml from the default language's table and add the code to site.yaml
 * draftLanguages. Both are edits of the files' text (yaml-edit.ts): the new table keeps the default
 * table's escapes (`\u00a0`), quoting and comments, and site.yaml only gains the code.
 */
export function newLanguage(contentDir: string, code: string): NewLanguageResult {
  if (!/^[a-z]{2,3}(?:-[A-Z]{2})?$/.test(code)) throw new UsageError(`"${code}" is not a language code such as fr, de or pt-BR`);
  const site = readEdit(contentDir, 'site.yaml');
  const languages = site.doc.get('languages');
  const defaultLanguage = String(site.doc.get('defaultLanguage'));
  const rel = `i18n/${code}.yaml`;
  ensureAbsent(contentDir, rel);
  const table = readEdit(contentDir, `i18n/${defaultLanguage}.yaml`);
  let untranslated = table.markStrings(markUntranslated);
  // The language's own name, locale and direction are known: they are not left to translate.
  const lang = table.doc.get('lang');
  if (isMap(lang)) {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
    const known: Record<string, string> = {
      name: name.charAt(0).toLocaleUpperCase(code) + name.slice(1),
      locale: new Intl.Locale(code).maximize().toString().replace(/-[A-Z][a-z]{3}(?=-|$)/, ''),
      dir: RTL.has(code.split('-')[0]!) ? 'rtl' : 'ltr',
    };
    for (const [key, value] of Object.entries(known)) {
      if (!lang.has(key)) continue;
      table.replaceString(['lang', key], value);
      untranslated--;
    }
  }
  // The default table's own header comment would describe the wrong language: replace it.
  const body = table.toString().replace(/^(?:#.*\n|[ \t]*\n)*/, '');
  const modeline = /^# yaml-language-server:.*\n/.exec(readText(contentDir, `i18n/${defaultLanguage}.yaml`))?.[0] ?? '';
  const header = [
    `# Text table for ${code}, written by \`site new language ${code}\` from ${defaultLanguage}.yaml. Every text`,
    '# marked [untranslated] shows the text after the mark until you translate it (then delete the',
    '# mark); the build counts what is left, and `site build --strict` fails while any remains.',
  ].join('\n');
  writeContent(contentDir, rel, `${modeline}${header}\n${body}`);
  const files = [rel];
  // A draft until translated (site.yaml draftLanguages): site watch shows it, a published build
  // leaves it out until the operator moves it to languages.
  const drafts = site.doc.get('draftLanguages');
  const listed = (list: unknown) => isSeq(list) && list.items.some((i) => isScalar(i) && i.value === code);
  if (!listed(languages) && !listed(drafts)) {
    if (isSeq(drafts)) site.append(['draftLanguages'], code);
    else if (!site.doc.has('draftLanguages')) site.put([], 'draftLanguages', site.doc.createNode([code], { flow: true }));
    else site.set(['draftLanguages'], [code]); // an empty key: the file is written whole
    writeContent(contentDir, 'site.yaml', site);
    files.push('site.yaml');
  }
  return { files, untranslated };
}
