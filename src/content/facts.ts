/**
 * Facts that texts reference instead of stating them: `{price:hour}`, `{booking:minAdvanceHours}`…
 * Each fact is declared once in the data files; a text names it and the build formats it for the
 * page's language, so a changed price shows everywhere and a stale number cannot survive in a text.
 */

/** One fact's value: an amount of money (formatted as currency), a number, or a plain text. */
export type Fact = { kind: 'money'; amount: number } | { kind: 'number'; value: number } | { kind: 'text'; value: string };

/** The parts of the site model that facts come from (a subset of `Site`, so load can pass raw data). */
export interface FactSources {
  rates?: { tiers: readonly { id: string; price: number | null }[]; extras: readonly { id: string; price: number | null }[] };
  booking?: { minAdvanceHours: number; confirmationMinutes: number };
  health?: { intervalMonths: number };
  tracking?: { attributionDays: number };
  contact?: { phone: string; whatsapp: string; email?: string | undefined };
}

/** The kinds of fact (`{kind:id}`) and the source each comes from. */
export const FACT_KINDS = { price: 'rates', booking: 'booking', health: 'health', tracking: 'tracking', contact: 'contact' } as const satisfies Record<string, keyof FactSources>;

/** Fact kinds whose source is missing (a data file that failed to load): their references are not checked. */
export function unavailableKinds(src: FactSources): Set<string> {
  return new Set(Object.entries(FACT_KINDS).filter(([, from]) => !src[from]).map(([kind]) => kind));
}

/** Every fact a text may reference, by reference name (`price:hour`). */
export function collectFacts(src: FactSources): ReadonlyMap<string, Fact> {
  const facts = new Map<string, Fact>();
  // Rate tier and extra ids are the price ids (rates.yaml is the one place prices are declared).
  for (const item of [...(src.rates?.tiers ?? []), ...(src.rates?.extras ?? [])])
    if (item.price !== null) facts.set(`price:${item.id}`, { kind: 'money', amount: item.price }); // null: on request
  if (src.booking) {
    facts.set('booking:minAdvanceHours', { kind: 'number', value: src.booking.minAdvanceHours });
    facts.set('booking:confirmationMinutes', { kind: 'number', value: src.booking.confirmationMinutes });
  }
  if (src.health) facts.set('health:intervalMonths', { kind: 'number', value: src.health.intervalMonths });
  if (src.tracking) facts.set('tracking:attributionDays', { kind: 'number', value: src.tracking.attributionDays });
  if (src.contact) {
    facts.set('contact:phone', { kind: 'text', value: src.contact.phone });
    facts.set('contact:whatsapp', { kind: 'text', value: src.contact.whatsapp });
    if (src.contact.email) facts.set('contact:email', { kind: 'text', value: src.contact.email });
  }
  return facts;
}

/** `{kind:id` at an argument position (ICU names cannot hold `:` or `-`, so references are renamed before parsing). */
const REFERENCE = /\{(\s*)([a-z]+:[A-Za-z0-9_-]+)(?=\s*[,}])/g;

/** Argument names given to references; chosen so no hand-written argument can collide. */
export const FACT_ARG_PREFIX = '__fact';

/** A message with its fact references renamed to legal ICU argument names, and the references by name. */
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

/** Formats facts for one locale; money through Intl with the site's currency, as prices elsewhere. */
export function factFormatter(locale: string, currency: string): (fact: Fact) => string | number {
  let money: Intl.NumberFormat | undefined; // made on first use: most languages' pages format few prices from texts
  return (fact) => (fact.kind === 'money' ? (money ??= new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 })).format(fact.amount) : fact.value);
}
