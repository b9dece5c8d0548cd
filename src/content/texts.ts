/** Text tables: flattening, lookup through ICU messages, and the missing-key record. */
import type { TextTree } from './schema.ts';
import type { Site } from './model.ts';
import type { Fact } from './facts.ts';
import { createMessages, type MessageArgs, type Messages } from './messages.ts';

/**
 * `{a: {b: 'x'}}` → `{'a.b': 'x'}`; non-string leaves are reported through `bad`, and a key written
 * twice (nested and dotted: `a: {b: …}` and `a.b: …`) through `twice`, with the path of the later one.
 */
export function flattenTexts(tree: unknown, bad: (key: string, value: unknown) => void, twice?: (key: string, path: readonly string[]) => void): Record<string, string> {
  const out: Record<string, string> = {};
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) {
    bad('(root)', tree);
    return out;
  }
  const walk = (node: TextTree, prefix: string, path: readonly string[]) => {
    for (const [k, v] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${k}` : k;
      // A number is not taken as its text: YAML reads `10.000` as 10 and `08001` as 8001, and the
      // page would show what the operator never wrote (load.ts names the fix: quotes).
      if (typeof v === 'string') {
        if (Object.hasOwn(out, key)) twice?.(key, [...path, k]);
        out[key] = v;
      } else if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as TextTree, key, [...path, k]);
      else bad(key, v);
    }
  };
  walk(tree as TextTree, '', []);
  return out;
}

/** A translate function for one language; a missing key shows the key itself (spec) and is recorded. */
export type Translate = ((key: string, vars?: MessageArgs) => string) & {
  has(key: string): boolean;
};

/**
 * What the render records beside missing keys (one set per language, shared by every thread) when
 * a text uses an argument the template showing it does not pass: the key, the missing names and
 * the names passed, joined by NUL (no key holds one). `splitMissing` reads them back.
 */
const SEP = '\u0000';

/** The entry for `key` shown without `missing` (the template passed `passed`). */
export function missingArguments(key: string, missing: readonly string[], passed: readonly string[]): string {
  return [key, missing.join(','), passed.join(',')].join(SEP);
}

/** The recorded entries of one language: keys missing from its table, and texts shown without some of their arguments. */
export function splitMissing(entries: Iterable<string>): { keys: string[]; args: { key: string; missing: string[]; passed: string[] }[] } {
  const keys: string[] = [];
  const args: { key: string; missing: string[]; passed: string[] }[] = [];
  for (const e of entries) {
    if (!e.includes(SEP)) keys.push(e);
    else {
      const [key, missing, passed] = e.split(SEP) as [string, string, string];
      args.push({ key, missing: missing.split(','), passed: passed ? passed.split(',') : [] });
    }
  }
  return { keys, args };
}

/**
 * `t(key, args)` over one language's ICU messages (`messages`: the language's, parsed once per
 * build). A missing key, and a text using an argument `args` lacks (shown as `{name}`: a client
 * script's placeholder is passed as such, `t('slides.counter', { n: '{n}', total: '{total}' })`),
 * are told to `onMissing` (missingArguments for the latter). `onRead` is told every key asked for
 * (incremental builds key a page on the texts it read: render/reads.ts).
 */
export function createTranslate(onMissing: (key: string) => void, messages: Messages, onRead?: (key: string) => void): Translate {
  const t = ((key, vars) => {
    onRead?.(key);
    const text = messages.format(key, vars, (names) => onMissing(missingArguments(key, names, Object.keys(vars ?? {}))));
    if (text === undefined) {
      onMissing(key);
      return key;
    }
    return text;
  }) as Translate;
  t.has = (key) => {
    onRead?.(key);
    return messages.has(key);
  };
  return t;
}

/** The messages of `lang` for this site: locale from the table's `lang.locale`, facts from the data. */
export function siteMessages(site: Site, lang: string): Messages {
  let perSite = messagesCache.get(site);
  if (!perSite) messagesCache.set(site, (perSite = new Map()));
  let m = perSite.get(lang);
  if (!m) {
    const table = site.texts[lang] ?? {};
    m = createMessages(table, table['lang.locale'] ?? lang, factsOf(site), site.config.currency);
    perSite.set(lang, m);
  }
  return m;
}

// Keyed by the site object: one build (or one render worker) shares the parsed messages.
const messagesCache = new WeakMap<Site, Map<string, Messages>>();

/** The facts a site's texts may reference. */
export function factsOf(site: Site): ReadonlyMap<string, Fact> {
  let facts = factsCache.get(site);
  if (!facts) factsCache.set(site, (facts = new Map(Object.entries(site.facts))));
  return facts;
}
const factsCache = new WeakMap<Site, ReadonlyMap<string, Fact>>();
