/**
 * The build's check of every text: ICU syntax (a plural or select needs `other`), fact references
 * that exist and fit their use, no literal prices, and no argument a translation uses that the
 * default language's message (what the templates pass) does not know. Each error names file and line.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { codeFrame, Diagnostics, type Diagnostic } from '../diagnostics.ts';
import { translateReferences, type Fact } from './facts.ts';
import { argumentNames, isPlainText, PARSE_OPTIONS, simpleParts } from './messages.ts';
import type { YamlFile } from './yaml.ts';

/** A currency amount written out: "€250", "250 €", "EUR 250", "250 euros"… (prices are facts: `{price:<id>}`). */
const LITERAL_PRICE =
  /(?:[€$£¥₽]|\b(?:EUR|USD|GBP))[\s\u00a0\u202f]?\d(?:[\d.,\s\u00a0\u202f]*\d)?|\d(?:[\d.,\u00a0\u202f]*\d)?[\s\u00a0\u202f]?(?:[€$£¥₽]|(?:EUR|USD|GBP|euros?|евро|ευρώ)(?!\p{L}))/iu;

/** Most texts hold no digit at all: the price pattern only runs on those that do. */
const HAS_DIGIT = /\d/;

/** What the parser's error kinds mean, in words an editor can act on. */
const SYNTAX_HINTS: Record<string, string> = {
  MISSING_OTHER_CLAUSE: 'a plural or select needs an `other {…}` branch',
  EMPTY_ARGUMENT: 'empty `{}`',
  MALFORMED_ARGUMENT: 'malformed argument: names are letters, digits and `_` (facts are written `{kind:id}`)',
  EXPECT_ARGUMENT_CLOSING_BRACE: 'an argument is not closed with `}`',
  UNCLOSED_QUOTE_IN_ARGUMENT_STYLE: "unclosed quote: `'{` starts quoted text in ICU; write `''` for an apostrophe before a brace",
  INVALID_ARGUMENT_TYPE: 'unknown argument type (use plural, select, selectordinal, number, date or time)',
  EXPECT_PLURAL_ARGUMENT_SELECTOR: 'a plural branch needs a selector such as `one`, `few`, `other` or `=0`',
  EXPECT_SELECT_ARGUMENT_SELECTOR: 'a select branch needs a selector',
  DUPLICATE_PLURAL_ARGUMENT_SELECTOR: 'a plural selector appears twice',
  DUPLICATE_SELECT_ARGUMENT_SELECTOR: 'a select selector appears twice',
};

export interface MessageCheckInput {
  /** Flattened tables per language. */
  texts: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The parsed YAML of each table, to locate keys. */
  files: Readonly<Record<string, YamlFile | undefined>>;
  defaultLanguage: string;
  facts: ReadonlyMap<string, Fact>;
  /** Every fact kind the site's model declares (`price`, `contact`…). */
  kinds: readonly string[];
  /** Fact kinds whose data failed to load (already reported): their references are not checked. */
  unavailable?: ReadonlySet<string>;
}

/**
 * Parsed messages by source, errors included: each message is parsed once per check (the default
 * language's arguments are read first), and a watch session's rebuilds parse only what changed.
 * Bounded: dropped whole past MAX_PARSED (a site has a few thousand messages).
 */
const parsed = new Map<string, MessageFormatElement[] | Error>();
const MAX_PARSED = 20_000;
function parseMessage(source: string): MessageFormatElement[] {
  let hit = parsed.get(source);
  if (hit === undefined) {
    try {
      hit = parse(source, PARSE_OPTIONS);
    } catch (e) {
      hit = e as Error;
    }
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(source, hit);
  }
  if (hit instanceof Error) throw hit;
  return hit;
}

/**
 * What the last check found, with what it was given: a watch session's rebuild after a post edit
 * gives the same frozen tables and parsed files again (content/load.ts flatTable), and the same
 * facts; then its findings are reported again without checking (~2.5 ms of each rebuild).
 */
const lastChecks = new WeakMap<object, { tables: unknown[]; files: unknown[]; rest: string; found: Diagnostic[] }>();

/** Check every message of every language; errors go to `diags`. */
export function checkMessages(input: MessageCheckInput, diags: Diagnostics): void {
  const langs = Object.keys(input.texts);
  const tables = langs.map((l) => input.texts[l]);
  const files = langs.map((l) => input.files[l]);
  const rest = JSON.stringify([langs, input.defaultLanguage, [...input.facts], input.kinds, [...(input.unavailable ?? [])]]);
  const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  // Kept by the default language's table (one entry per session's tables, not one per thread).
  const anchor = input.texts[input.defaultLanguage];
  const frozen = anchor !== undefined && tables.every((t) => Object.isFrozen(t));
  const last = frozen ? lastChecks.get(anchor) : undefined;
  if (last && same(last.tables, tables) && same(last.files, files) && last.rest === rest) {
    for (const d of last.found) diags.add({ ...d });
    return;
  }
  const found = new Diagnostics();
  checkAll(input, found);
  for (const d of found.items) diags.add({ ...d });
  if (frozen) lastChecks.set(anchor, { tables, files, rest, found: found.items });
}

function checkAll(input: MessageCheckInput, diags: Diagnostics): void {
  const { texts, files, defaultLanguage, facts } = input;
  const known = input.kinds;
  const argsOf = (lang: string): Map<string, Set<string>> => {
    const out = new Map<string, Set<string>>();
    for (const [key, raw] of Object.entries(texts[lang] ?? {})) {
      if (isPlainText(raw)) {
        out.set(key, new Set());
        continue;
      }
      const parts = simpleParts(raw);
      if (parts) {
        out.set(key, new Set(parts.filter((p, i) => i % 2 === 1 && !p.includes(':'))));
        continue;
      }
      const { source, refs } = translateReferences(raw);
      try {
        out.set(key, new Set([...argumentNames(parseMessage(source))].filter((n) => !refs.has(n))));
      } catch {
        // reported below
      }
    }
    return out;
  };
  const defaultArgs = argsOf(defaultLanguage);

  for (const [lang, table] of Object.entries(texts)) {
    const file = files[lang];
    const rel = file?.file ?? `i18n/${lang}.yaml`;
    const report = (key: string, message: string) => {
      const pos = file?.locate(key.split('.')) ?? { line: 1, column: 1 };
      diags.error({ code: 'message', file: rel, ...pos, field: key, message, ...(file ? { frame: codeFrame(file.source, pos.line - file.lineOffset, pos.column) } : {}) });
    };
    for (const [key, raw] of Object.entries(table)) {
      const literal = HAS_DIGIT.test(raw) ? LITERAL_PRICE.exec(raw) : null;
      if (literal)
        report(key, `states a price literally ("${literal[0]}"): reference the rate instead, e.g. {price:<rate id>} (ids: ${[...facts.keys()].filter((k) => k.startsWith('price:')).map((k) => k.slice(6)).join(', ')})`);
      if (isPlainText(raw)) continue; // no arguments, nothing to parse
      const parts = simpleParts(raw);
      let refs: ReadonlyMap<string, string>;
      let ast: MessageFormatElement[] = [];
      let mine: string[];
      if (parts) {
        // `{name}` substitutions only: valid by construction, no parser needed.
        const names = parts.filter((_, i) => i % 2 === 1);
        refs = new Map(names.filter((n) => n.includes(':')).map((n) => [n, n]));
        mine = names.filter((n) => !n.includes(':'));
      } else {
        const translated = translateReferences(raw);
        refs = translated.refs;
        try {
          ast = parseMessage(translated.source);
        } catch (e) {
          const kind = (e as Error).message;
          const at = (e as { location?: { start: { offset: number } } }).location?.start.offset;
          const near = at === undefined ? '' : ` near "${translated.source.slice(Math.max(0, at - 12), at + 12)}"`;
          report(key, `ICU message syntax error: ${SYNTAX_HINTS[kind] ?? kind}${near}`);
          continue;
        }
        mine = [...argumentNames(ast)].filter((n) => !refs.has(n));
      }
      for (const [name, ref] of refs) {
        const fact = facts.get(ref);
        if (!fact) {
          const kind = ref.split(':')[0]!;
          if (input.unavailable?.has(kind)) continue; // its data file has errors of its own
          const same = [...facts.keys()].filter((k) => k.startsWith(`${kind}:`));
          report(key, `unknown fact {${ref}}: ${same.length ? `known ${kind} facts: ${same.map((k) => `{${k}}`).join(', ')}` : `fact kinds are ${known.join(', ')}`}`);
        } else if (fact.kind !== 'number' && usedAsNumber(ast, name)) {
          report(key, `{${ref}} is a ${fact.kind === 'money' ? 'formatted price' : fact.kind === 'list' ? 'list of texts' : 'text'}: it cannot drive a plural, select or number format`);
        }
      }
      if (lang === defaultLanguage) continue;
      const theirs = defaultArgs.get(key);
      if (!theirs) continue; // a key the default language lacks is reported as an extra/missing text elsewhere
      const unknown = mine.filter((n) => !theirs.has(n));
      if (unknown.length)
        report(key, `uses {${unknown.join('}, {')}}, which the ${defaultLanguage} message does not (the page passes only ${theirs.size ? `{${[...theirs].join('}, {')}}` : 'no arguments'})`);
    }
  }
}

/** Whether argument `name` drives a plural, select or number format anywhere in the message. */
function usedAsNumber(ast: readonly MessageFormatElement[], name: string): boolean {
  return ast.some((el) => {
    if ((el.type === TYPE.plural || el.type === TYPE.select || el.type === TYPE.number) && el.value === name) return true;
    if (el.type === TYPE.plural || el.type === TYPE.select) return Object.values(el.options).some((o) => usedAsNumber(o.value, name));
    return false;
  });
}
