/** Diagnostics: every problem the build finds, with the place it comes from. */

/** A note says what the build did on purpose (a draft left out): never an error, even with --strict. */
export type Severity = 'error' | 'warning' | 'note';

/** One problem: where (file, line, column), which field, and what was expected. */
export interface Diagnostic {
  severity: Severity;
  /** Short machine-readable kind, e.g. `yaml`, `schema`, `missing-translation`, `stale`. */
  code: string;
  message: string;
  /** Path relative to the content root (or templates root), forward slashes. */
  file?: string;
  line?: number;
  column?: number;
  /** Dotted field path inside the file, e.g. `rooms[2].phone`. */
  field?: string;
  /** A few lines of the source around `line`, for the printer. */
  frame?: string;
  /** The whole list behind a short message (every sample value, every missing key): shown with --verbose. */
  details?: readonly string[];
}

/** How diagnostics are printed: colours for a terminal, details with --verbose. */
export interface PrintOptions {
  color?: boolean;
  verbose?: boolean;
}

/**
 * Colours on a terminal, the usual way: NO_COLOR (any value) turns them off, FORCE_COLOR (not 0)
 * turns them on even in a pipe, else only when `stream` is a terminal that is not "dumb".
 */
export function useColor(stream: { isTTY?: boolean } = process.stderr, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' ) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

const SGR = { error: '31', warning: '33', note: '36', dim: '2', bold: '1' } as const;
/** `text` in a colour when `on` (SGR codes; reset after). */
export const paint = (on: boolean | undefined, style: keyof typeof SGR, text: string): string => (on ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text);

/** Collects diagnostics for one build; errors stop the build after the stage that found them. */
export class Diagnostics {
  readonly items: Diagnostic[] = [];

  add(d: Diagnostic): void {
    this.items.push(d);
  }
  error(d: Omit<Diagnostic, 'severity'>): void {
    this.add({ ...d, severity: 'error' });
  }
  warn(d: Omit<Diagnostic, 'severity'>): void {
    this.add({ ...d, severity: 'warning' });
  }
  note(d: Omit<Diagnostic, 'severity'>): void {
    this.add({ ...d, severity: 'note' });
  }
  get errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'error');
  }
  get warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'warning');
  }
  hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}

/** Thrown by a stage that found errors; carries all of them. */
export class BuildError extends Error {
  constructor(
    readonly stage: string,
    readonly diagnostics: Diagnostic[],
  ) {
    super(`${stage}: ${diagnostics.length} error(s)\n${diagnostics.map((d) => formatDiagnostic(d)).join('\n')}`);
    this.name = 'BuildError';
  }
}

/**
 * `text` with every control character (ESC, NUL, bell, C1 controls…) shown as an escape such as
 * `\x1b`: content reaches the terminal only through diagnostics, and a hostile or binary file
 * must not be able to move the cursor, clear the screen or retitle the window.
 */
export function printable(text: string, keepNewlines = false): string {
  const re = keepNewlines ? /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/g : /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]/g;
  return text.replace(re, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16)}`;
  });
}

/** `file:line:col: severity [code] field: message` plus an optional code frame. */
export function formatDiagnostic(d: Diagnostic, opts: PrintOptions = {}): string {
  let place = d.file ? printable(d.file) : '';
  if (d.file && d.line) place += `:${d.line}${d.column ? `:${d.column}` : ''}`;
  const head = [place && paint(opts.color, 'bold', `${place}:`), paint(opts.color, d.severity, `${d.severity} [${d.code}]`), d.field && `${printable(d.field)}:`, printable(d.message)]
    .filter(Boolean)
    .join(' ');
  const details = opts.verbose && d.details?.length ? `\n${d.details.map((line) => `      ${printable(line)}`).join('\n')}` : '';
  return `${head}${details}${d.frame ? `\n${paint(opts.color, 'dim', printable(d.frame, true))}` : ''}`;
}

/** What a failed build prints: the stage, how many problems, then each (the first 50) with its place and code frame. */
export function formatFailure(stage: string, errors: readonly Diagnostic[], opts: PrintOptions = {}): string {
  const lines = [`Build failed (${stage}): ${errors.length} problem(s). The previous output was left untouched.\n`];
  for (const d of errors.slice(0, 50)) lines.push(`${formatDiagnostic(d, opts)}\n`);
  if (errors.length > 50) lines.push(`… and ${errors.length - 50} more.`);
  return lines.join('\n');
}

/** Longest source line a code frame shows (the rest is cut, so a minified line stays one line). */
const FRAME_WIDTH = 160;

/**
 * Two lines of context either side of `line` (1-based in `source`), with a marker on it. `lineOffset`
 * is the number of file lines before `source` (front matter starts on line 2), so the numbers shown
 * are the file's, as in the `file:line` header.
 */
export function codeFrame(source: string, line: number, column = 1, lineOffset = 0): string {
  const lines = source.split(/\r?\n/);
  const from = Math.max(1, line - 2);
  const to = Math.min(lines.length, line + 2);
  const width = String(to + lineOffset).length;
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const mark = n === line ? '>' : ' ';
    let text = lines[n - 1] ?? '';
    if (text.length > FRAME_WIDTH) text = `${text.slice(0, FRAME_WIDTH)}…`;
    out.push(`  ${mark} ${String(n + lineOffset).padStart(width)} | ${printable(text)}`);
    if (n === line) out.push(`    ${' '.repeat(width)} | ${' '.repeat(Math.min(FRAME_WIDTH, Math.max(0, column - 1)))}^`);
  }
  return out.join('\n');
}
