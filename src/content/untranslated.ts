/**
 * Texts written by `site new language` (or a model's `site new <kind>`) before anyone translated them. Such a value starts
 * with the marker and holds the default language's text (or a first draft) after it: pages show
 * that text without the marker, and the build counts the marked keys per language (a warning,
 * so `--strict` fails) until the translator replaces the value.
 */
export const UNTRANSLATED = '[untranslated] ';

/** Mark a text as not yet translated. */
export function markUntranslated(text: string): string {
  return text.startsWith(UNTRANSLATED) ? text : UNTRANSLATED + text;
}

/** Strip the marker from a flattened table in place; returns the keys that carried it. */
export function takeUntranslated(table: Record<string, string>): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    if (!value.startsWith(UNTRANSLATED)) continue;
    table[key] = value.slice(UNTRANSLATED.length);
    keys.push(key);
  }
  return keys;
}
