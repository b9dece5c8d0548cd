/**
 * Posts' HTML kept between one-shot builds, by the digest of their markdown (as Astro's content
 * layer keeps rendered entries): markdown was a fifth of a 1,000 x 4 build's CPU, done again for
 * every post on every build that renders them all (a new output folder, a template edit).
 *
 * One file per content folder and generator (the markdown renderer is the generator's code): a
 * header, then frames appended as builds make new entries. A frame is two lengths (u32 LE), an
 * index (`digest length` lines, UTF-8) and the HTML of its entries one after the other. Opening
 * reads only the frames' heads and indexes; an entry is read from the file when asked for, so a
 * cache of 64,000 posts costs its index in memory, not its 200 MB, and every thread may open it.
 * A frame cut short (a build killed while appending) ends the file's readable part; the next
 * good build writes the file anew with the live entries only, as it does once dead entries (posts
 * edited or deleted) outweigh the live ones.
 */
import { closeSync, openSync, readSync, writeSync, fstatSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { dropStale, writeFileAtomic } from '../files.ts';

const HEADER = Buffer.from('site markdown 1\n');
const HEAD_BYTES = 8;
/** New entries are appended in frames of about this many bytes (a page worker's memory stays flat). */
const FRAME_BYTES = 4 << 20;

/** One frame: its two lengths, its index and its entries' HTML. */
function frame(entries: readonly { digest: string; html: Buffer }[]): Buffer {
  const index = Buffer.from(entries.map((e) => `${e.digest} ${e.html.length}\n`).join(''), 'latin1');
  const head = Buffer.alloc(HEAD_BYTES);
  head.writeUInt32LE(index.length, 0);
  head.writeUInt32LE(entries.reduce((n, e) => n + e.html.length, 0), 4);
  return Buffer.concat([head, index, ...entries.map((e) => e.html)]);
}

export class KeptMarkdown {
  /** A file up to this size is read whole when opened (one read instead of one per post: 4,000 reads cost ~50 ms); a larger one entry by entry. */
  static wholeBytes = 64 << 20;

  /** Where each entry's HTML is in the file: byte offset and length. */
  private readonly index = new Map<string, { at: number; bytes: number }>();
  private fd: number | undefined;
  /** The file's bytes, when read whole. */
  private bytes: Buffer | undefined;
  /** Entries this thread made, not yet appended. */
  private pending: { digest: string; html: Buffer }[] = [];
  private readonly pendingDigests = new Set<string>();
  private pendingBytes = 0;
  /** Whether the file needs writing anew: cut short, or not of this version. */
  private damaged = false;
  private frames = 0;
  /** Entries `get` found. */
  hits = 0;

  private constructor(readonly file: string) {}

  /** The file of `contentDir`'s posts for the generator `generator` (a key of its code). */
  static fileOf(cacheDir: string, contentDir: string, generator: string): string {
    return path.join(cacheDir, `markdown-${createHash('sha256').update(contentDir).digest('hex').slice(0, 12)}-${generator.slice(0, 12)}.bin`);
  }

  /** Open `file` (absent or unreadable: an empty cache that will write it). */
  static open(file: string): KeptMarkdown {
    const kept = new KeptMarkdown(file);
    try {
      kept.fd = openSync(file, 'r');
      kept.readIndex();
    } catch {
      kept.damaged = kept.fd !== undefined;
    }
    return kept;
  }

  private readIndex(): void {
    const fd = this.fd!;
    const size = fstatSync(fd).size;
    if (size <= KeptMarkdown.wholeBytes) {
      const whole = Buffer.allocUnsafe(size);
      if (readSync(fd, whole, 0, size, 0) === size) this.bytes = whole;
    }
    const head = Buffer.alloc(Math.max(HEADER.length, HEAD_BYTES));
    if (readSync(fd, head, 0, HEADER.length, 0) !== HEADER.length || !head.subarray(0, HEADER.length).equals(HEADER)) {
      this.damaged = true;
      return;
    }
    let at = HEADER.length;
    while (at < size) {
      if (at + HEAD_BYTES > size || readSync(fd, head, 0, HEAD_BYTES, at) !== HEAD_BYTES) break;
      const indexBytes = head.readUInt32LE(0);
      const blobBytes = head.readUInt32LE(4);
      const end = at + HEAD_BYTES + indexBytes + blobBytes;
      if (end > size) break;
      const index = Buffer.alloc(indexBytes);
      if (readSync(fd, index, 0, indexBytes, at + HEAD_BYTES) !== indexBytes) break;
      const entries: [string, number][] = [];
      let total = 0;
      for (const line of index.toString('latin1').split('\n')) {
        if (!line) continue;
        const space = line.indexOf(' ');
        const bytes = Number(line.slice(space + 1));
        if (space < 1 || !Number.isSafeInteger(bytes) || bytes < 0) break;
        entries.push([line.slice(0, space), bytes]);
        total += bytes;
      }
      // An index that does not add up to its frame: the rest of the file is not trusted.
      if (total !== blobBytes) break;
      let blob = at + HEAD_BYTES + indexBytes;
      for (const [digest, bytes] of entries) {
        this.index.set(digest, { at: blob, bytes });
        blob += bytes;
      }
      this.frames++;
      at = end;
    }
    if (at !== size) this.damaged = true;
  }

  has(digest: string): boolean {
    return this.index.has(digest) || this.pendingDigests.has(digest);
  }

  /** The HTML kept for a body of digest `digest`, or undefined (also when the file cannot be read). */
  get(digest: string): string | undefined {
    const where = this.index.get(digest);
    if (!where || this.fd === undefined) return undefined;
    if (this.bytes) {
      this.hits++;
      return this.bytes.toString('utf8', where.at, where.at + where.bytes);
    }
    const buf = Buffer.allocUnsafe(where.bytes);
    try {
      if (readSync(this.fd, buf, 0, where.bytes, where.at) !== where.bytes) return undefined;
    } catch {
      return undefined;
    }
    this.hits++;
    return buf.toString('utf8');
  }

  /** Keep `html`, made now from a body of digest `digest` (appended by `flush`). */
  add(digest: string, html: string): void {
    if (this.has(digest)) return;
    const bytes = Buffer.from(html);
    this.pending.push({ digest, html: bytes });
    this.pendingDigests.add(digest);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= FRAME_BYTES) this.flush();
  }

  /** Append the entries made since the last flush as one frame (a cache that cannot be written costs the next build markdown). */
  flush(): void {
    if (!this.pending.length) return;
    // A damaged file is written anew, with what it still holds.
    if (this.damaged) return this.rewrite(() => true);
    const entries = this.takePending();
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const fd = openSync(this.file, 'a');
      try {
        // A new file starts with its header (another build may have made it meanwhile: appending is safe, a second header is not).
        if (fstatSync(fd).size === 0) writeSync(fd, HEADER);
        // One write: builds appending at once each add whole frames.
        writeSync(fd, frame(entries));
      } finally {
        closeSync(fd);
      }
    } catch {
      // the next build renders these posts' markdown again
    }
  }

  /**
   * After a good build whose posts have the digests `live`: append what this thread made, or
   * write the file anew with the live entries only when it is damaged or mostly dead entries.
   */
  save(live: ReadonlySet<string>): void {
    let dead = 0;
    for (const digest of this.index.keys()) if (!live.has(digest)) dead++;
    if (!this.damaged && dead <= Math.max(256, this.index.size / 2) && this.frames < 1024) this.flush();
    else this.rewrite((digest) => live.has(digest));
    this.tidy();
  }

  private takePending(): { digest: string; html: Buffer }[] {
    const entries = this.pending;
    this.pending = [];
    this.pendingDigests.clear();
    this.pendingBytes = 0;
    return entries;
  }

  /** Write the file anew (whole or not at all) with the entries `keep` keeps, kept and pending. */
  private rewrite(keep: (digest: string) => boolean): void {
    const entries: { digest: string; html: Buffer }[] = [];
    for (const [digest, where] of this.index) {
      if (!keep(digest) || this.fd === undefined) continue;
      const html = Buffer.allocUnsafe(where.bytes);
      try {
        if (readSync(this.fd, html, 0, where.bytes, where.at) === where.bytes) entries.push({ digest, html });
      } catch {
        // left out
      }
    }
    for (const p of this.takePending()) if (keep(p.digest)) entries.push(p);
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileAtomic(this.file, Buffer.concat([HEADER, frame(entries)]));
      // (Entries are still read from the file as it was opened: the descriptor holds it.)
      this.damaged = false;
    } catch {
      // the next build tries again
    }
  }

  /** The same content folder's files made by other generators are of no more use, nor those of folders not built for a week. */
  private tidy(): void {
    const dir = path.dirname(this.file);
    const folder = path.basename(this.file).slice(0, 'markdown-'.length + 12);
    try {
      for (const name of readdirSync(dir)) {
        if (name.startsWith(folder) && name.endsWith('.bin') && name !== path.basename(this.file)) rmSync(path.join(dir, name), { force: true });
      }
    } catch {
      // a vanished cache folder
    }
    dropStale(dir, 'markdown-', 7 * 86_400_000);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.bytes = undefined;
  }

  /** Entries readable now (tests, the summary). */
  get size(): number {
    return this.index.size;
  }
}
