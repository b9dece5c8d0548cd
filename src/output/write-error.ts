/**
 * Writes of the new build that fail (a full disk, a read-only or foreign folder) become an error
 * naming the file, with what to do; Node's own message names the system call, not the file
 * ("ENOSPC: no space left on device, write").
 */
import path from 'node:path';

/**
 * A file of the new build that could not be written (a full disk, a read-only or foreign folder):
 * named, with what to do. The build stops; the previous output stays (build.ts makes this a build
 * error of the stage "write").
 */
export class OutputWriteError extends Error {
  override name = 'OutputWriteError';
  constructor(
    /** Where the file goes, as the operator sees it (`dist/blog/x.html`). */
    readonly file: string,
    readonly code: string | undefined,
    why: string,
  ) {
    super(why);
  }
}

const WHY: Record<string, string> = {
  ENOSPC: 'the disk is full (ENOSPC): free some space on it, then build again',
  EDQUOT: 'the disk quota is used up (EDQUOT): free some space, then build again',
  EROFS: 'the file system is read-only (EROFS): build into a writable folder (--out)',
  EACCES: 'permission denied (EACCES): make the output folder writable, or build into another (--out)',
  EPERM: 'not permitted (EPERM): make the output folder writable, or build into another (--out)',
  EMFILE: 'too many open files (EMFILE): raise the limit (ulimit -n), then build again',
  EIO: 'an input/output error of the disk (EIO)',
};

/** Run a write of `file` (under `outDir`): a failure becomes an OutputWriteError naming it. */
export function writing<T>(outDir: string, file: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code !== 'string') throw err; // not the file system's: a defect, shown as it is
    const shown = path.relative(process.cwd(), path.join(outDir, file)) || file;
    throw new OutputWriteError(shown, e.code, `could not be written: ${(e.code && WHY[e.code]) ?? e.message}`);
  }
}
