/** Diagnostics: every problem the build finds, with the place it comes from. */

export type Severity = 'error' | 'warning';

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
  /** Dotted field path inside the file, e.g. `venues[2].phone`. */
  field?: string;
  /** A few lines of the source around `line`, for the printer. */
  frame?: string;
}

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
    super(`${stage}: ${diagnostics.length} error(s)\n${diagnostics.map(formatDiagnostic).join('\n')}`);
    this.name = 'BuildError';
  }
}

/** `file:line:col: severity [code] field: message` plus an optional code frame. */
export function formatDiagnostic(d: Diagnostic): string {
  let place = d.file ?? '';
  if (d.file && d.line) place += `:${d.line}${d.column ? `:${d.column}` : ''}`;
  const head = [place && `${place}:`, `${d.severity} [${d.code}]`, d.field && `${d.field}:`, d.message]
    .filter(Boolean)
    .join(' ');
  return d.frame ? `${head}\n${d.frame}` : head;
}

/** Two lines of context either side of `line` (1-based), with a marker on it. */
export function codeFrame(source: string, line: number, column = 1): string {
  const lines = source.split(/\r?\n/);
  const from = Math.max(1, line - 2);
  const to = Math.min(lines.length, line + 2);
  const width = String(to).length;
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const mark = n === line ? '>' : ' ';
    out.push(`  ${mark} ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`);
    if (n === line) out.push(`    ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return out.join('\n');
}
