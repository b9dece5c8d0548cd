/** Text tables: flattening, lookup through ICU messages, and the missing-key record. */
import type { TextTree } from './schema.ts';
import type { Site } from './model.ts';
import type { Fact } from './facts.ts';
import { createMessages, type MessageArgs, type Messages } from './messages.ts';

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

/** A translate function for one language; a missing key shows the key itself (spec) and is recorded. */
export type Translate = ((key: string, vars?: MessageArgs) => string) & {
  has(key: string): boolean;
};

/** `t(key, args)` over one language's ICU messages (`messages`: the language's, parsed once per build). */
export function createTranslate(onMissing: (key: string) => void, messages: Messages): Translate {
  const t = ((key, vars) => {
    const text = messages.format(key, vars);
    if (text === undefined) {
      onMissing(key);
      return key;
    }
    return text;
  }) as Translate;
  t.has = (key) => messages.has(key);
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
