/**
 * One build of an output folder at a time. Two `site build`s of one folder (two deploy jobs that
 * overlap, a build started twice) each carried pages over from the live build the other was
 * replacing, and one failed on a file the other had just removed. Now the second waits, says so,
 * and then builds on what the first published (usually: nothing changed).
 *
 * The lock is a file in the build cache naming the process that holds it: its pid and, where
 * the system tells (Linux), when that process started, so a pid used again by another process (pid 1
 * of the next container, after a build killed in one) is not taken for the build. A lock whose
 * process is gone is taken over, by one waiting build at a time.
 */
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { alive } from './publish.ts';

/**
 * The lock of output folder `outDir` in `cacheDir`: named after the folder's real place, so two
 * spellings of one folder (through a symlinked parent) share it.
 */
export function lockFile(cacheDir: string, outDir: string): string {
  let real = path.resolve(outDir);
  try {
    real = path.join(realpathSync(path.dirname(real)), path.basename(real));
  } catch {
    // no parent yet: the path as given
  }
  return path.join(cacheDir, `build-${createHash('sha256').update(real).digest('hex').slice(0, 12)}.lock`);
}

/** How often a waiting build looks at the lock again. */
const POLL_MS = 100;
/** How long a lock naming no process (damaged, or of another format) is left before it is taken over. */
const UNNAMED_MS = 1000;

/** When process `pid` started (clock ticks since boot, /proc/<pid>/stat), where the system says. */
function startOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses, which may hold spaces): the 22nd is the start time.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** This process's start, as its lock records it ('' where the system does not tell). */
const SELF_START = startOf(process.pid);

interface Holder {
  pid: number;
  start: string;
  text: string;
}

function holderOf(file: string): Holder | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, start = ''] = text.trim().split(' ');
  const n = Number(pid);
  // Where the system tells start times, a lock without one was not written by this version: unnamed.
  const named = Number.isInteger(n) && n > 0 && (start !== '' || SELF_START === '');
  return named ? { pid: n, start, text } : { pid: 0, start: '', text };
}

/** Whether the lock's holder is a build still running: its process, not one that got its pid later. */
function running(h: Holder): boolean {
  if (h.pid === process.pid || !alive(h.pid)) return false;
  const start = h.start && startOf(h.pid);
  return !start || start === h.start;
}

/** Create `file` holding `text` only if it does not exist, whole (a link of a file already written). */
function create(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Remove the lock `stale` named, unless it changed meanwhile; one process at a time (the guard file). */
function takeOver(file: string, stale: Holder): void {
  const guard = `${file}.takeover`;
  if (!create(guard, `${process.pid} ${SELF_START}`.trim())) {
    const other = holderOf(guard);
    // Its holder was killed while taking over: the guard goes (the next round takes it).
    if (other && !running(other)) rmSync(guard, { force: true });
    return;
  }
  try {
    if (holderOf(file)?.text === stale.text) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

/**
 * Hold the lock `file` (waiting while a running build holds it; `onWait` is told its pid once);
 * returns the function that lets it go (also called when the process exits).
 */
export async function lockBuild(file: string, onWait: (pid: number) => void): Promise<() => void> {
  const me = `${process.pid} ${SELF_START}`.trim();
  // A waiting build stops on Ctrl-C or SIGTERM, even as a container's pid 1 (which has no default action).
  const stop = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    let told = false;
    let unnamed: { text: string; since: number } | undefined;
    for (;;) {
      if (create(file, me)) break;
      const holder = holderOf(file);
      if (!holder) continue; // gone meanwhile
      if (holder.pid === 0) {
        // Not a lock this version writes: left a second (another version may be writing it), then taken over.
        if (unnamed?.text !== holder.text) unnamed = { text: holder.text, since: Date.now() };
        if (Date.now() - unnamed.since > UNNAMED_MS) takeOver(file, holder);
        else await sleep(POLL_MS);
        continue;
      }
      if (!running(holder)) {
        takeOver(file, holder);
        await sleep(POLL_MS / 20); // another waiting build may be taking it over
        continue;
      }
      if (!told) onWait(holder.pid);
      told = true;
      await sleep(POLL_MS);
    }
  } catch {
    return () => undefined; // a cache folder that cannot be written: built unlocked, as before locks
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  const release = () => {
    if (holderOf(file)?.text === me) rmSync(file, { force: true });
    process.off('exit', release);
  };
  process.on('exit', release);
  return release;
}
