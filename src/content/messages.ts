/**
 * ICU messages of one language: each text parsed once (lazily, on first use) and formatted with
 * intl-messageformat for the language's locale, fact references filled from the data.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat, type Formatters } from 'intl-messageformat';
import { factFormatter, translateReferences, type Fact } from './facts.ts';

/** Arguments a caller passes to a message. */
export type MessageArgs = Record<string, string | number>;

/** Parser options shared by the build check and the formatter (tags stay text: texts hold no markup). */
export const PARSE_OPTIONS = { ignoreTag: true, requiresOtherClause: true } as const;

/** Told the names of the arguments a message uses that its caller did not pass (they show as `{name}`). */
export type MissingArguments = (names: readonly string[]) => void;

/** A compiled message: a constant text, a substitution, or a formatter with the fact values it needs. */
type Compiled = string | ((args: MessageArgs | undefined, missing?: MissingArguments) => string) | { format: IntlMessageFormat; facts: MessageArgs | undefined; args: readonly string[]; raw: string };

/** Only `{name}` arguments (no plural, select, number format or quoting): ICU prints these as `String(value)`. */
const SIMPLE = /^(?:[^{}']|'(?![{}'])|\{\s*[A-Za-z0-9_:-]+\s*\})*$/;
const SIMPLE_ARG = /\{\s*([A-Za-z0-9_:-]+)\s*\}/;

/**
 * A message that only substitutes arguments, split into literal text (even indexes) and argument
 * names or fact references (odd indexes); undefined when the message needs the ICU parser.
 */
export function simpleParts(raw: string): string[] | undefined {
  return SIMPLE.test(raw) ? raw.split(SIMPLE_ARG) : undefined;
}

/** One language's messages; `format` is what `t()` calls. */
export interface Messages {
  readonly locale: string;
  /**
   * The formatted message, or undefined when the table has no such key. An argument the message
   * uses that `args` lacks shows as `{name}`, and `missing` is told its name.
   */
  format(key: string, args?: MessageArgs, missing?: MissingArguments): string | undefined;
  has(key: string): boolean;
}

/** Intl formatters memoised per options, shared by every message of a language (Intl objects are costly to make). */
function sharedFormatters(): Formatters {
  const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
  const memo = <T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(kind: string, args: unknown[], make: () => T): T => {
    const key = `${kind}\0${JSON.stringify(args)}`;
    let hit = cache.get(key) as T | undefined;
    if (!hit) cache.set(key, (hit = make()));
    return hit;
  };
  return {
    getNumberFormat: (...args) => memo('n', args, () => new Intl.NumberFormat(...(args as ConstructorParameters<typeof Intl.NumberFormat>))),
    getDateTimeFormat: (...args) => memo('d', args, () => new Intl.DateTimeFormat(...args)),
    getPluralRules: (...args) => memo('p', args, () => new Intl.PluralRules(...args)),
  };
}

/** Text with no ICU syntax at all (no braces, no quoting apostrophe): it formats to itself, unparsed. */
export function isPlainText(raw: string): boolean {
  return !raw.includes('{') && !raw.includes('}') && !raw.includes("'");
}

/** Names of every argument a message uses (nested plural/select branches included). */
export function argumentNames(ast: readonly MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const el of ast) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    out.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) argumentNames(option.value, out);
    if (el.type === TYPE.tag) argumentNames(el.children, out);
  }
  return out;
}

/**
 * The messages of one text table. Facts are formatted once per language; a message is parsed the
 * first time a page asks for it, and a message without arguments becomes a plain string, so most
 * `t()` calls are a map lookup.
 */
export function createMessages(
  table: Readonly<Record<string, string>>,
  locale: string,
  facts: ReadonlyMap<string, Fact>,
  currency: string,
): Messages {
  const compiled = new Map<string, Compiled>();
  const formatters = sharedFormatters();
  const formatFact = factFormatter(locale, currency, table);
  const factValues = new Map<string, string | number>();
  const factValue = (ref: string): string | number => {
    let v = factValues.get(ref);
    if (v === undefined) {
      const fact = facts.get(ref);
      // The build check reports unknown references; a page still shows where one was.
      v = fact ? formatFact(fact) : `{${ref}}`;
      factValues.set(ref, v);
    }
    return v;
  };

  const compile = (raw: string): Compiled => {
    if (isPlainText(raw)) return raw;
    const parts = simpleParts(raw);
    if (parts) {
      // Facts are constant for the build: fill them in now; what is left is plain substitution.
      const merged = [parts[0]!];
      for (let i = 1; i < parts.length; i += 2) {
        if (parts[i]!.includes(':')) merged[merged.length - 1] += String(factValue(parts[i]!)) + parts[i + 1]!;
        else merged.push(parts[i]!, parts[i + 1]!);
      }
      if (merged.length === 1) return merged[0]!;
      return (args, missing) => {
        let out = merged[0]!;
        let absent: string[] | undefined;
        for (let i = 1; i < merged.length; i += 2) {
          const v = args?.[merged[i]!];
          if (v === undefined) (absent ??= []).push(merged[i]!);
          out += (v === undefined ? `{${merged[i]}}` : String(v)) + merged[i + 1]!;
        }
        if (absent) missing?.(absent);
        return out;
      };
    }
    const { source, refs } = translateReferences(raw);
    let ast: MessageFormatElement[];
    try {
      ast = parse(source, PARSE_OPTIONS);
    } catch {
      return raw; // reported by the build check; shown as written
    }
    if (ast.every((el) => el.type === TYPE.literal)) return ast.map((el) => el.value).join('');
    let factArgs: MessageArgs | undefined;
    for (const [name, ref] of refs) (factArgs ??= {})[name] = factValue(ref);
    const names = [...argumentNames(ast)];
    // Only fact references and no plural/select on them: the text is the same on every page.
    const format = new IntlMessageFormat(ast, locale, undefined, { formatters });
    if (factArgs && names.every((n) => refs.has(n))) return String(format.format(factArgs));
    return { format, facts: factArgs, args: names, raw };
  };

  return {
    locale,
    has: (key) => table[key] !== undefined,
    format(key, args, missing) {
      let c = compiled.get(key);
      if (c === undefined) {
        const raw = table[key];
        if (raw === undefined) return undefined;
        compiled.set(key, (c = compile(raw)));
      }
      if (typeof c === 'string') return c;
      if (typeof c === 'function') return c(args, missing);
      const values = c.facts ? { ...c.facts, ...args } : (args ?? {});
      try {
        return String(c.format.format(values));
      } catch {
        // An argument the caller did not pass: show it as `{name}` (the build reports it).
        const filled: MessageArgs = { ...values };
        const absent = c.args.filter((n) => !(n in filled));
        if (absent.length) missing?.(absent);
        for (const n of absent) filled[n] = `{${n}}`;
        try {
          return String(c.format.format(filled));
        } catch {
          return c.raw;
        }
      }
    },
  };
}
