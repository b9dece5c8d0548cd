/**
 * YAML mistakes in words an editor can act on. The parser's own messages ("Nested mappings are not
 * allowed in compact mappings", seven errors for one tab) describe its state, often a line early;
 * this finds the mistake the operator made, on its own line, and says how to fix it. One error per
 * mistake: what the parser reports after the first mistake is a consequence of it.
 */

/** A parser error: 1-based line and column, the `yaml` library's code, its message. */
export interface ParserError {
  line: number;
  col: number;
  code?: string;
  message: string;
}

export interface Mistake {
  line: number;
  col: number;
  message: string;
}

const indentOf = (text: string) => /^ */.exec(text)![0].length;
const isContent = (text: string | undefined) => text !== undefined && text.trim() !== '' && !/^\s*#/.test(text);

/** `key: value` on one line (a list item's `- key: value` too); the value as written. */
const KEY_VALUE = /^(\s*(?:-\s+)?)([^\s#'"{[][^:#]*?):[ \t]+(.*)$/;

/** The text of an unquoted value that holds `: ` (YAML reads it as a key of its own). */
function colonInValue(text: string): { key: string; col: number } | undefined {
  const m = KEY_VALUE.exec(text);
  if (!m) return undefined;
  const value = m[3]!;
  if (/^['"[{|>&*!]/.test(value)) return undefined;
  const at = value.search(/:\s/);
  return at < 0 ? undefined : { key: m[2]!.trim(), col: m[1]!.length + m[2]!.length + 2 + at + 1 };
}

/** Explain `errors` of `source` (already parsed and failed); never empty when `errors` is not. */
export function explainYamlErrors(source: string, errors: readonly ParserError[]): Mistake[] {
  const lines = source.split(/\r?\n/);
  // A tab in the indentation is always a mistake, and each such line is one: report them all.
  const tabs: Mistake[] = [];
  lines.forEach((text, i) => {
    const m = /^( *)\t/.exec(text);
    if (m && isContent(text)) tabs.push({ line: i + 1, col: m[1]!.length + 1, message: 'this line is indented with a tab: YAML indents with spaces only. Use spaces, not a tab (as many as the lines around it)' });
  });
  if (tabs.length) return tabs;

  const first = errors[0];
  if (!first) return [];
  const L = first.line;
  const text = lines[L - 1] ?? '';
  const next = lines.findIndex((t, i) => i >= L && isContent(t));

  // A colon followed by a space inside an unquoted text, on this line or the one the parser blames.
  for (const n of [L, L - 1]) {
    const hit = isContent(lines[n - 1]) ? colonInValue(lines[n - 1]!) : undefined;
    if (hit && (first.code === 'BLOCK_AS_IMPLICIT_KEY' || first.code === 'MULTILINE_IMPLICIT_KEY' || /mapping values|compact mappings/.test(first.message)))
      return [{ line: n, col: hit.col, message: `the text of "${hit.key}" contains ": ", which YAML reads as the start of another key: put the text in quotes because it contains ": " (${hit.key}: "…")` }];
  }
  if (first.code === 'BLOCK_IN_FLOW' && /:\s/.test(text))
    return [{ line: L, col: first.col, message: 'a text inside { … } or [ … ] contains ": " or starts a list: put that text in quotes ("…")' }];

  // A line indented deeper than the one above, which opens nothing: the mistake is that line.
  if ((first.code === 'BLOCK_AS_IMPLICIT_KEY' || first.code === 'MULTILINE_IMPLICIT_KEY') && next >= 0 && indentOf(lines[next]!) > indentOf(text) && KEY_VALUE.test(text)) {
    const want = indentOf(text);
    return [{ line: next + 1, col: 1, message: `this line is indented ${indentOf(lines[next]!)} spaces, more than the line above (${want}), which does not open a group: indent this line like the one above (${want} spaces)` }];
  }
  const flow = /end with an? ([\]}])/.exec(first.message);
  if (flow) {
    const opener = flow[1] === ']' ? '[' : '{';
    // The nearest line at or above the error where more of them open than close.
    const closer = flow[1]!;
    const unbalanced = (t: string) => t.split(opener).length > t.split(closer).length;
    let open = L;
    for (let i = Math.min(L, lines.length); i >= 1; i--) if (isContent(lines[i - 1]) && unbalanced(lines[i - 1]!)) { open = i; break; }
    return [{ line: Math.max(1, open), col: Math.max(1, (lines[open - 1] ?? '').lastIndexOf(opener) + 1), message: `a ${opener} … ${flow[1]} list starts here and is never closed: add ${flow[1]} at its end, on the same line` }];
  }
  if ((first.code === 'BAD_INDENT' || /bad indentation/.test(first.message)) && !lines.slice(0, L - 1).filter(isContent).map(indentOf).includes(indentOf(text))) {
    // The indents in use above this line: the nearest one at most as deep is what was meant.
    const above = lines.slice(0, L - 1).filter(isContent).map(indentOf);
    const here = indentOf(text);
    const nearest = above.filter((n) => n <= here).reduce((a, b) => Math.max(a, b), 0);
    const deeper = above.filter((n) => n > here).reduce((a, b) => Math.min(a, b), Infinity);
    const hint = deeper - here <= here - nearest && Number.isFinite(deeper) ? deeper : nearest;
    return [{ line: L, col: 1, message: `this line is indented ${here} spaces, which matches no line above it: indent it like the line it belongs with (${hint} spaces)` }];
  }
  if (first.code === 'MISSING_CHAR' && /quote/i.test(first.message)) {
    const quote = /"/.test(first.message) ? '"' : "'";
    let open = L;
    for (let i = L - 1; i >= 1; i--) if ((lines[i - 1]!.split(quote).length - 1) % 2 === 1) { open = i; break; }
    return [{ line: open, col: Math.max(1, lines[open - 1]!.indexOf(quote) + 1), message: `a quoted text starts here and is never closed: add the closing ${quote} at its end` }];
  }
  if (first.code === 'DUPLICATE_KEY') {
    const key = /^\s*(?:-\s+)?([^:]+):/.exec(text)?.[1]?.trim();
    return [{ line: L, col: first.col, message: `${key ? `"${key}"` : 'this key'} appears twice in the same group: remove or rename one of them` }];
  }
  // The parser's own stack ran out: lists or groups inside each other thousands of levels deep.
  if (/Maximum call stack/.test(first.message)) return [{ line: L, col: first.col, message: 'lists or groups are nested inside each other thousands of levels deep here, more than any content file holds: was something pasted by mistake? Remove the extra [ or {' }];
  return [{ line: L, col: first.col, message: `malformed YAML: ${first.message}${errors.length > 1 ? ' (fix this first: what follows may be a consequence of it)' : ''}` }];
}
