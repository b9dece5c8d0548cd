/**
 * YAML files parsed with positions, so schema errors can point at a line. js-yaml (YAML 1.2 core
 * schema, about 5x faster) reads every file; the `yaml` library, which keeps source positions,
 * parses a file again only when something in it has to be located: the common, error-free
 * build pays for speed, and an error still gets its line and column.
 */
import { load as fastLoad, CORE_SCHEMA } from 'js-yaml';
import { LineCounter, parseDocument, isMap, isNode, isScalar, visit, type Document } from 'yaml';
import { codeFrame, type Diagnostics } from '../diagnostics.ts';
import { explainYamlErrors } from './yaml-errors.ts';
import { CONTROL, controlMessage, LONE_SURROGATE } from './read.ts';

type Position = { line: number; column: number };

/** A parsed YAML file that can say where any field is. */
export interface YamlFile {
  file: string;
  source: string;
  /** Lines before `source` in the real file (front matter starts after `---`). */
  lineOffset: number;
  data: unknown;
  /** Line and column of the value at `path`, or of its nearest existing parent. */
  locate(path: readonly PropertyKey[]): Position;
  /** Line and column of the key `key` in the mapping at `path` (for unknown keys). */
  locateKey(path: readonly PropertyKey[], key: string): Position;
}

/**
 * An anchor or alias (`&name`, `*name`) may be in the file. js-yaml expands aliases without any
 * limit (a 1 KB chain of them grows to gigabytes), so such a file is read by the positioned parser,
 * which caps the expansion; a false alarm (a `*` inside a quoted text) only costs a slower parse.
 */
const MAYBE_ALIAS = /(?:^|[\s[{,:-])[&*][^\s[\]{},]/m;
/** Most nodes aliases may expand to in one file (the `yaml` library's measure): plenty for reuse. */
export const MAX_ALIAS_COUNT = 100;

function positioned(source: string) {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  return { doc, lineCounter };
}

/** Parse `source`; YAML syntax errors are reported (file, line, column) and yield `undefined`. */
export function parseYaml(file: string, source: string, diags: Diagnostics, lineOffset = 0): YamlFile | undefined {
  let data: unknown;
  let parsed: ReturnType<typeof positioned> | undefined;
  const report = (errors: { pos: { line: number; col: number }; code?: string; message: string }[]) => {
    // One error per mistake, on its line, in plain words (yaml-errors.ts).
    for (const m of explainYamlErrors(source, errors.map((e) => ({ line: e.pos.line, col: e.pos.col, code: e.code, message: e.message })))) {
      diags.error({ code: 'yaml', file, line: m.line + lineOffset, column: m.col, message: m.message, frame: codeFrame(source, m.line, m.col, lineOffset) });
    }
    return undefined;
  };
  if (MAYBE_ALIAS.test(source)) {
    parsed = positioned(source);
    const { doc, lineCounter } = parsed;
    if (doc.errors.length) return report(doc.errors.map((e) => ({ pos: lineCounter.linePos(e.pos[0]), code: e.code, message: e.message.split('\n')[0]! })));
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      // An alias naming no anchor before it: said as such, at that alias (not as too much data).
      const unresolved = /^Unresolved alias/.test((err as Error).message);
      let first = 0;
      visit(doc, {
        Alias: (_key, node) => {
          if (unresolved && node.resolve(doc) !== undefined) return undefined;
          first = node.range?.[0] ?? 0;
          return visit.BREAK;
        },
      });
      const pos = lineCounter.linePos(first);
      if (unresolved) {
        const name = /:\s*(\S+)\s*$/.exec((err as Error).message)?.[1];
        diags.error({
          code: 'yaml',
          file,
          line: pos.line + lineOffset,
          column: pos.col,
          message: `the alias *${name ?? '…'} names no anchor (&${name ?? '…'}) before it in this file: set the anchor on the value first, or write the value out`,
          frame: codeFrame(source, pos.line, pos.col, lineOffset),
        });
        return undefined;
      }
      diags.error({
        code: 'yaml-aliases',
        file,
        line: pos.line + lineOffset,
        column: pos.col,
        message: `YAML aliases (*name) here expand to too much data (${(err as Error).message.split('\n')[0]}): aliases may expand to at most ${MAX_ALIAS_COUNT} nodes per file; write the values out`,
        frame: codeFrame(source, pos.line, pos.col, lineOffset),
      });
      return undefined;
    }
  } else {
    try {
      data = fastLoad(source, { schema: CORE_SCHEMA, filename: file });
    } catch (fastError) {
      // Report with the positioned parser's messages; fall back to js-yaml's own if it disagrees.
      const { doc, lineCounter } = positioned(source);
      return report(
        doc.errors.length
          ? doc.errors.map((e) => ({ pos: lineCounter.linePos(e.pos[0]), code: e.code, message: e.message.split('\n')[0]! }))
          : [{ pos: { line: ((fastError as { mark?: { line: number } }).mark?.line ?? 0) + 1, col: ((fastError as { mark?: { column: number } }).mark?.column ?? 0) + 1 }, message: (fastError as { reason?: string }).reason ?? String(fastError) }],
      );
    }
  }
  const made = yamlFile(file, source, data, lineOffset, parsed);
  return controlsIn(made, diags) ? undefined : made;
}

/**
 * A plain scalar as written at `pos` of `file` (`10.000`, `08001`): the rest of its line without
 * a comment, or, inside `{ … }` or `[ … ]`, up to the next `,`, `}` or `]`. For messages that show
 * what YAML made of it.
 */
export function writtenAt(file: YamlFile, pos: { line: number; column: number }): string {
  const line = file.source.split('\n')[pos.line - 1 - file.lineOffset] ?? '';
  const before = line.slice(0, pos.column - 1);
  let rest = line.slice(pos.column - 1).replace(/\s+#.*$/, '');
  const opened = (before.match(/[{[]/g) ?? []).length > (before.match(/[}\]]/g) ?? []).length;
  if (opened) rest = rest.split(/[,}\]]/)[0]!;
  return rest.trim();
}

/**
 * A number or true/false read from `file` at `pos` where a text belongs, as a message with the
 * quotes it needs: always for a text table (any text goes), else only when YAML changed what was
 * written (`08001234` read as 8001234), where the quotes are surely what was meant.
 */
export function quoteHint(value: number | boolean, file: YamlFile, pos: { line: number; column: number }, always: boolean): string {
  const written = writtenAt(file, pos);
  const changed = written !== '' && written !== String(value);
  const kind = typeof value === 'number' ? 'the number' : 'the value';
  const found = `expected a text, found ${kind} ${String(value)}${changed ? ` (YAML reads ${written} without quotes as that)` : ''}`;
  return always || changed ? `${found}: write it in quotes, ${JSON.stringify(written || String(value))}` : found;
}

/** CONTROL's characters or either half of a surrogate pair (a whole pair, an emoji, is fine: checked then). */
const SUSPECT = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]/;

/** Report every string (value or key) of `file` holding a control character or half a character, written as a YAML escape (`"\x07"`, `"\uD83D"`); true if any. */
function controlsIn(file: YamlFile, diags: Diagnostics): boolean {
  let found = false;
  const walk = (value: unknown, path: PropertyKey[]): void => {
    if (typeof value === 'string') {
      // (One scan of every string; the two exact checks only for the few that hold a suspect.)
      if (!SUSPECT.test(value)) return;
      const c = CONTROL.exec(value);
      const half = c ? undefined : LONE_SURROGATE.exec(value);
      if (!c && !half) return;
      found = true;
      const pos = file.locate(path);
      const code = (c ?? half)![0].charCodeAt(0).toString(16).toUpperCase();
      const message = c
        ? `${controlMessage(c[0])} (written as an escape, such as "\\x${code.toLowerCase().padStart(2, '0')}")`
        : `half of a character (U+${code}, a UTF-16 surrogate without its other half, written as the escape "\\u${code}") that no page can show: write the whole character, or remove it`;
      diags.error({ code: 'not-text', file: file.file, ...pos, field: path.join('.') || '(root)', message });
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        if (SUSPECT.test(k)) walk(k, path);
        walk(v, [...path, k]);
      }
  };
  walk(file.data, []);
  return found;
}

/**
 * A parsed file from its data: `parsed`, the positioned parse when one was made (else made when a
 * diagnostic first asks where a value is). Builds that keep a file's data from an earlier build
 * (content/load.ts) make theirs this way, without parsing.
 */
export function yamlFile(file: string, source: string, data: unknown, lineOffset = 0, parsed?: ReturnType<typeof positioned>): YamlFile {
  const at = (offset: number): Position => {
    const pos = parsed!.lineCounter.linePos(offset);
    return { line: pos.line + lineOffset, column: pos.col };
  };
  const locate = (path: readonly PropertyKey[]): Position => {
    parsed ??= positioned(source);
    const { doc } = parsed;
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
      if (isNode(node) && node.range) return at(node.range[0]);
    }
    return { line: 1 + lineOffset, column: 1 };
  };
  return {
    file,
    source,
    lineOffset,
    data,
    locate,
    locateKey(path, key) {
      parsed ??= positioned(source);
      const parent = path.length === 0 ? parsed.doc.contents : parsed.doc.getIn(path as unknown[], true);
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key);
        if (pair && isNode(pair.key) && pair.key.range) return at(pair.key.range[0]);
      }
      return locate([...path, key]);
    },
  };
}
