/**
 * `site check --missing <lang>`: the texts a language lacks compared with the default language,
 * and every text it still has marked untranslated, those only some languages have too (the forms
 * of a city's name that a sentence needs in Russian or Greek, `city.<id>.in`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { flattenTexts } from '../content/texts.ts';
import { takeUntranslated } from '../content/untranslated.ts';
import { UsageError } from './usage.ts';
import { fields } from '../content/schema.ts';

export interface MissingTexts {
  defaultLanguage: string;
  /** The default language's texts, by key. */
  reference: Record<string, string>;
  missing: string[];
  untranslated: string[];
  /** The language's own texts (the text after each mark), by key: for keys the default language lacks. */
  own: Record<string, string>;
}

/** `--missing <lang>` names a language code with a text table; else a usage error (a path such as `../site` would read site.yaml as one). */
export function checkLanguageArgument(contentDir: string, lang: string): void {
  if (!fields.langCode.safeParse(lang).success) throw new UsageError(`--missing ${lang}: not a language code (such as en, es or pt-BR)`);
  if (!existsSync(path.join(contentDir, 'i18n', `${lang}.yaml`))) throw new UsageError(`--missing ${lang}: there is no text table i18n/${lang}.yaml`);
}

/** The texts `lang` lacks or has marked (`checkLanguageArgument` has passed: the caller checks it before the check runs). */
export function missingKeys(contentDir: string, lang: string): MissingTexts {
  const read = (rel: string) => parse(readFileSync(path.join(contentDir, rel), 'utf8')) as unknown;
  const { defaultLanguage } = read('site.yaml') as { defaultLanguage: string };
  const ignore = () => undefined; // shape errors are the check's to report
  const reference = flattenTexts(read(`i18n/${defaultLanguage}.yaml`), ignore);
  takeUntranslated(reference);
  const table = flattenTexts(read(`i18n/${lang}.yaml`), ignore);
  const untranslated = takeUntranslated(table).sort();
  const keys = Object.keys(reference).sort();
  return { defaultLanguage, reference, missing: keys.filter((k) => table[k] === undefined), untranslated, own: table };
}
