/** Text tables: flattening, lookup with interpolation, and the missing-key record. */
import type { TextTree } from './schema.ts';

/** `{a: {b: 'x'}}` → `{'a.b': 'x'}`; non-string leaves are reported through `bad`. */
export function flattenTexts(
  tree: unknown,
  bad: (key: string, value: unknown) => void,
  prefix = '',
  out: Record<string, string> = {},
): Record<string, string> {
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) {
    bad(prefix || '(root)', tree);
    return out;
  }
  for (const [k, v] of Object.entries(tree as TextTree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out[key] = v;
    else if (typeof v === 'number') out[key] = String(v);
    else if (v && typeof v === 'object' && !Array.isArray(v)) flattenTexts(v, bad, key, out);
    else bad(key, v);
  }
  return out;
}

/** Replace `{name}` placeholders; unknown placeholders stay visible. */
export function interpolate(text: string, vars?: Record<string, string | number>): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/** A translate function for one language; a missing key shows the key itself (spec) and is recorded. */
export type Translate = ((key: string, vars?: Record<string, string | number>) => string) & {
  has(key: string): boolean;
};

export function createTranslate(
  table: Readonly<Record<string, string>>,
  onMissing: (key: string) => void,
): Translate {
  const t = ((key, vars) => {
    const value = table[key];
    if (value === undefined) {
      onMissing(key);
      return key;
    }
    return interpolate(value, vars);
  }) as Translate;
  t.has = (key) => table[key] !== undefined;
  return t;
}
