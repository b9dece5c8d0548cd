/**
 * One build of an output folder at a time. Two `site build`s of one folder (two deploy jobs that
 * overlap, a build started twice) each carried pages over from the live build the other was
 * replacing, and one failed on a file the other had just removed. Now the second waits, says so,
 * and then builds on what the first published (usually: nothing changed).
 *
 * The lock is a file beside the build record naming the process that holds it. A lock whose process
 * is gone (a build killed with SIGKILL) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { alive } from './publish.ts';

/** How often a waiting build looks at the lock again. */
const POLL_MS = 100;

const holderOf = (file: string): number | undefined => {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Hold the lock `file` (waiting while another live process holds it; `onWait` is told its pid once);
 * returns the function that lets it go (also called when the process exits).
 */
export async function lockBuild(file: string, onWait: (pid: number) => void): Promise<() => void> {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch {
    return () => undefined; // a cache folder that cannot be written: built unlocked, as before locks
  }
  let told = false;
  let unnamedSince: number | undefined;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      // Not writable (a read-only cache): built unlocked, as before locks; the record is not kept either.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return () => undefined;
    }
    const holder = holderOf(file);
    if (holder === undefined) {
      // Not named yet (its holder writes its pid right after creating it), or never will be (killed in between).
      unnamedSince ??= Date.now();
      if (Date.now() - unnamedSince > 1000) rmSync(file, { force: true });
      else await sleep(POLL_MS / 10);
      continue;
    }
    unnamedSince = undefined;
    if (!alive(holder)) {
      // Its build was killed: taken over (unless another waiting build did so first).
      if (holderOf(file) === holder) rmSync(file, { force: true });
      continue;
    }
    if (!told) onWait(holder);
    told = true;
    await sleep(POLL_MS);
  }
  const release = () => {
    if (holderOf(file) === process.pid) rmSync(file, { force: true });
    process.off('exit', release);
  };
  process.on('exit', release);
  return release;
}
