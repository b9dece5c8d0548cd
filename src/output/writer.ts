/**
 * Stage "write": output goes to a staging folder beside the target and is swapped into place only
 * when the whole build succeeded, so a failed build leaves the last good `dist/` untouched.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Where rendered files go; injected so tests can build into memory. */
export interface Writer {
  write(file: string, content: string | Uint8Array): Promise<void>;
  /** Make the output visible (disk: swap the staging folder in). */
  commit(): Promise<void>;
  /** Drop everything written (the previous output stays). */
  abort(): Promise<void>;
  readonly files: number;
  readonly bytes: number;
}

/** Writes nothing to disk: for tests and dry runs. */
export class MemoryWriter implements Writer {
  readonly output = new Map<string, string | Uint8Array>();
  files = 0;
  bytes = 0;
  async write(file: string, content: string | Uint8Array): Promise<void> {
    if (this.output.has(file)) throw new Error(`${file} written twice`);
    this.output.set(file, content);
    this.files++;
    this.bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }
  async commit(): Promise<void> {}
  async abort(): Promise<void> {
    this.output.clear();
  }
  text(file: string): string | undefined {
    const v = this.output.get(file);
    return v === undefined ? undefined : typeof v === 'string' ? v : Buffer.from(v).toString('utf8');
  }
}

/** Writes into `<out>.staging-<pid>` and renames it to `<out>` on commit. */
export class DiskWriter implements Writer {
  files = 0;
  bytes = 0;
  private readonly staging: string;
  private readonly dirs = new Set<string>();
  private readonly written = new Set<string>();

  constructor(private readonly outDir: string) {
    this.staging = `${outDir.replace(/[\\/]+$/, '')}.staging-${process.pid}-${Date.now()}`;
  }

  async write(file: string, content: string | Uint8Array): Promise<void> {
    if (this.written.has(file)) throw new Error(`${file} written twice`);
    this.written.add(file);
    const target = path.join(this.staging, file);
    const dir = path.dirname(target);
    if (!this.dirs.has(dir)) {
      await fs.mkdir(dir, { recursive: true });
      this.dirs.add(dir);
    }
    await fs.writeFile(target, content);
    this.files++;
    this.bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }

  async commit(): Promise<void> {
    await fs.mkdir(this.staging, { recursive: true });
    const old = `${this.outDir.replace(/[\\/]+$/, '')}.old-${process.pid}-${Date.now()}`;
    let hadOld = true;
    try {
      await fs.rename(this.outDir, old);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      hadOld = false;
    }
    try {
      await fs.rename(this.staging, this.outDir);
    } catch (err) {
      if (hadOld) await fs.rename(old, this.outDir); // put the last good build back
      throw err;
    }
    if (hadOld) await fs.rm(old, { recursive: true, force: true });
  }

  async abort(): Promise<void> {
    await fs.rm(this.staging, { recursive: true, force: true });
  }
}
