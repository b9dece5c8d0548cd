/**
 * Progress of long stages (cold image encoding, large renders). On a terminal one line updates in
 * place; without one (CI logs) a plain line is printed every few seconds, so a slow stage is never
 * silent and a fast one prints nothing.
 */

/** Where progress goes and how often (tests pass their own stream and clock). */
export interface ProgressOptions {
  stream?: { isTTY?: boolean; columns?: number; write(text: string): unknown };
  /** Milliseconds between plain lines without a terminal (SITE_PROGRESS_INTERVAL_MS, default 5000). */
  interval?: number;
  now?: () => number;
  /** Print nothing (`--quiet`). */
  quiet?: boolean;
}

/** One stage's counter. */
export interface Progress {
  /** `done` of `total` units are finished; `current` names the one that just did (shown after the count). */
  update(done: number, current?: string): void;
  /** The stage ended: clear the terminal line, or print the total if anything was printed. */
  end(): void;
}

const silent: Progress = { update() {}, end() {} };

/** Start reporting a stage of `total` units named `label` (such as "images encoded"). */
export function startProgress(label: string, total: number, opts: ProgressOptions = {}): Progress {
  if (opts.quiet || total <= 0) return silent;
  const stream = opts.stream ?? process.stderr;
  const now = opts.now ?? Date.now;
  const envInterval = Number(process.env.SITE_PROGRESS_INTERVAL_MS);
  const interval = opts.interval ?? (Number.isFinite(envInterval) && process.env.SITE_PROGRESS_INTERVAL_MS !== '' ? envInterval : 5000);
  const tty = Boolean(stream.isTTY);
  // A terminal line updates every 100 ms at most; it starts after a second, so fast stages stay quiet.
  const every = tty ? 100 : interval;
  const started = now();
  let last = started;
  let printed = false;
  let shown = -1;
  const line = (done: number) => `${label}: ${done}/${total} (${Math.round((done / total) * 100)}%)`;
  // On a terminal the line must not wrap (`\r` would then rewrite its last row only).
  const fit = (text: string) => (stream.columns && text.length >= stream.columns ? `${text.slice(0, stream.columns - 2)}…` : text);
  return {
    update(done, current) {
      const t = now();
      if (done === shown || t - last < every || (tty && t - started < Math.min(1000, interval))) return;
      last = t;
      shown = done;
      printed = true;
      const text = current ? `${line(Math.min(done, total))} ${current}` : line(Math.min(done, total));
      stream.write(tty ? `\r\x1b[K${fit(text)}` : `${text}\n`);
    },
    end() {
      if (!printed) return;
      stream.write(tty ? '\r\x1b[K' : `${line(total)} done in ${((now() - started) / 1000).toFixed(1)} s\n`);
    },
  };
}
