/**
 * Facts that texts reference instead of stating them: `{price:single}`, `{shop:openingHour}`…
 * Each fact is declared once in the data files (the site's model says which: `SiteModel.facts`); a text names it and the build formats it for the
 * page's language, so a changed price shows everywhere and a stale number cannot survive in a text.
 */

/** One fact's value: an amount of money (formatted as currency), a number, or a plain text. */
export type Fact =
  | { kind: 'money'; amount: number }
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  /**
   * A list of texts of the page's language, joined the language's way ("A, B and C", "А, Б и В"):
   * each item is text keys tried in order (a city's locative form, else its name); `separator`
   * joins with that string instead ("A · B · C").
   */
  | { kind: 'list'; items: readonly (readonly string[])[]; separator?: string };

/** `{kind:id` at an argument position (ICU names cannot hold `:` or `-`, so references are renamed before parsing). */
const REFERENCE = /\{(\s*)([a-z]+:[A-Za-z0-9_-]+)(?=\s*[,}])/g;

/** Argument names given to references; chosen so no hand-written argument can collide. */
export const FACT_ARG_PREFIX = '__fact';

/** A message with its fact references renamed to valid ICU argument names, and the references by name. */
export interface TranslatedSource {
  source: string;
  /** Argument name → reference (`__fact0` → `price:hour`). */
  refs: ReadonlyMap<string, string>;
}

/** Rename `{price:hour}` to `{__fact0}` (same reference, same name) so the ICU parser accepts it. */
export function translateReferences(message: string): TranslatedSource {
  const refs = new Map<string, string>();
  const names = new Map<string, string>();
  const source = message.includes(':')
    ? message.replace(REFERENCE, (_m, space: string, ref: string) => {
        let name = names.get(ref);
        if (name === undefined) {
          name = `${FACT_ARG_PREFIX}${names.size}`;
          names.set(ref, name);
          refs.set(name, ref);
        }
        return `{${space}${name}`;
      })
    : message;
  return { source, refs };
}

/** Formats facts for one locale; money through Intl with the site's currency, as prices elsewhere; lists from `table`. */
export function factFormatter(locale: string, currency: string, table: Readonly<Record<string, string>> = {}): (fact: Fact) => string | number {
  let money: Intl.NumberFormat | undefined; // made on first use: most languages' pages format few prices from texts
  let list: Intl.ListFormat | undefined;
  return (fact) => {
    if (fact.kind === 'money') return (money ??= new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 })).format(fact.amount);
    if (fact.kind !== 'list') return fact.value;
    // An item none of whose keys the table has shows its last key (the missing-text rule: visible, and reported by the checks).
    const items = fact.items.map((keys) => table[keys.find((k) => table[k] !== undefined) ?? ''] ?? keys.at(-1) ?? '');
    return fact.separator !== undefined ? items.join(fact.separator) : (list ??= new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' })).format(items);
  };
}
