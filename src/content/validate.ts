/** Schema validation with errors mapped back to file, line and field. */
import type { z } from 'zod';
import { codeFrame, type Diagnostics } from '../diagnostics.ts';
import { quoteHint, type YamlFile } from './yaml.ts';

/**
 * A field path as an editor reads it: `rooms[deluxe].phone` from `['rooms', 2, 'phone']` when the
 * list item has an id (or slug) in `data`, else by position, `rooms[2].phone`.
 */
export function fieldPath(path: readonly PropertyKey[], data?: unknown): string {
  let out = '';
  let cur = data;
  for (const p of path) {
    const item = cur !== null && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[p] : undefined;
    const named = item !== null && typeof item === 'object' ? ((item as { id?: unknown }).id ?? (item as { slug?: unknown }).slug) : undefined;
    out += typeof p === 'number' ? `[${typeof named === 'string' && /^[\w-]+$/.test(named) ? named : p}]` : `${out ? '.' : ''}${String(p)}`;
    cur = item;
  }
  return out;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

/** What zod's formats expect, in the words of the rest of the messages. */
const FORMATS: Record<string, string> = {
  email: 'an email address such as name@example.com',
  url: 'an address starting with https://',
};

/** A size limit zod reports in its own words ("Too big: expected number to be <=5"), in plain ones. */
function bound(issue: { code: 'too_big' | 'too_small'; origin?: string; inclusive?: boolean; maximum?: unknown; minimum?: unknown }): string {
  const big = issue.code === 'too_big';
  const n = Number(big ? issue.maximum : issue.minimum);
  const limit = issue.inclusive === false ? (big ? `below ${n}` : `above ${n}`) : big ? `at most ${n}` : `at least ${n}`;
  if (issue.origin === 'string') return `expected ${limit} character${n === 1 ? '' : 's'}`;
  if (issue.origin === 'array' || issue.origin === 'set') return `expected ${limit} entr${n === 1 ? 'y' : 'ies'}`;
  return `expected ${limit}`;
}

/** Validate a parsed file; every issue becomes an error with line and field. */
export function validate<S extends z.ZodType>(
  file: YamlFile,
  schema: S,
  diags: Diagnostics,
  fieldPrefix: readonly PropertyKey[] = [],
): z.output<S> | undefined {
  const result = schema.safeParse(file.data);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = issue.path as PropertyKey[];
    const actual = valueAt(file.data, path);
    let message = issue.message;
    let pos: { line: number; column: number } | undefined;
    let field = fieldPath(fieldPrefix) + (fieldPrefix.length && path.length ? '.' : '') + fieldPath(path, file.data) || '(root)';
    // A check of our own (fields.unique): its message is written for the operator, with its own code.
    const own = issue.code === 'custom' ? (issue.params as { diagnostic?: string } | undefined)?.diagnostic : undefined;
    if (own) {
      // message as written
    } else if (issue.code === 'unrecognized_keys') {
      const key = issue.keys[0]!;
      message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}: check the spelling`;
      pos = file.locateKey(path, key);
      field = fieldPath(fieldPrefix) + (fieldPrefix.length ? '.' : '') + fieldPath([...path, key], file.data);
    } else if (path.length === 0 && (actual === undefined || actual === null)) {
      message = 'the file is empty (or holds only comments): write its fields';
    } else if ((issue.code === 'too_big' || issue.code === 'too_small') && /^Too (big|small): /.test(issue.message)) {
      message = `${bound(issue)}, found ${Array.isArray(actual) || typeof actual === 'string' ? actual.length : describe(actual)}`;
    } else if (issue.code === 'invalid_format' && /^Invalid /.test(issue.message)) {
      message = `expected ${FORMATS[issue.format] ?? `a text matching ${(issue as { pattern?: string }).pattern ?? issue.format}`}, found ${describe(actual)}`;
    } else if (issue.code === 'invalid_type' && actual === undefined) {
      message = `missing required field: expected ${issue.expected}`;
    } else if (issue.code === 'invalid_type' && issue.expected === 'string' && (typeof actual === 'number' || typeof actual === 'boolean')) {
      // A text YAML read as a number (`taxId: 08001234` is 8001234): the quotes it needs.
      pos = file.locate(path);
      message = quoteHint(actual, file, pos, false);
    } else if (issue.code === 'invalid_type') {
      message = `expected ${issue.expected}, found ${describe(actual)}`;
    } else if (actual !== undefined && issue.code !== 'too_small' && issue.code !== 'too_big') {
      // zod's own wording without its prefix ("Invalid discriminator value. Expected 'a' | 'b'": one of them).
      message = `expected ${issue.message.replace(/^Invalid input: /, '').replace(/^Invalid discriminator value\. Expected /, 'one of ')}, found ${describe(actual)}`;
    }
    pos ??= file.locate(path);
    diags.error({
      code: own ?? 'schema',
      file: file.file,
      line: pos.line,
      column: pos.column,
      field,
      message,
      frame: codeFrame(file.source, pos.line - file.lineOffset, pos.column, file.lineOffset),
    });
  }
  return undefined;
}
