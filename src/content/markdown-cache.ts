/**
 * Posts' HTML kept between one-shot builds, by the digest of their markdown (as Astro's content
 * layer keeps rendered entries): markdown was a fifth of a 1,000 x 4 build's CPU, done again for
 * every post on every build that renders them all (a new output folder, a template edit).
 *
 * One file per content folder and generator (the markdown renderer is the generator's code): a
 * header, then frames appended as builds make new entries. A frame is a line of two lengths, an
 * index (`digest length crc32` lines) and the HTML of its entries one after the other: all text,
 * written with one write of one string (no copy of the HTML in memory outside the collector's
 * heap: the first build of 64,000 posts made ~100 MB of buffers it freed late). Opening
 * reads only the frames' heads and indexes; an entry is read from the file when asked for, so a
 * cache of 64,000 posts costs its index in memory, not its 200 MB, and every thread may open it.
 * An entry whose bytes do not have its CRC-32 is not taken (a frame cut short by a killed build,
 * then another build's frame after it: its entries point into the other's bytes). A frame that
 * does not add up ends the file's readable part. Either way the next good build writes the file
 * anew with the live entries only, as it does once dead entries (posts edited or deleted)
 * outweigh the live ones. Only the main thread writes it anew; page workers only append.
 * (A kept body is not rendered again, so markdown's time limit, MARKDOWN_LIMIT_MS, is not applied
 * to it again: it rendered within the limit of the build that kept it.)
 */
import { closeSync, existsSync, fstatSync, linkSync, mkdirSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { dropSiblings, tempBeside, writeFileAtomic } from '../files.ts';

const HEADER = 'site markdown 3\n';
/** A frame's head is a line `<index bytes> <HTML bytes>`, at most this long. */
const HEAD_MAX = 24;
/** New entries are appended in frames of about this many bytes (a page worker's memory stays flat). */
const FRAME_BYTES = 4 << 20;

/** An entry: a post's digest and its HTML. */
type Entry = { digest: string; html: string };

/** One frame, as text: its head line, its index and its entries' HTML. */
function frame(entries: readonly Entry[]): string {
  let index = '';
  let blobBytes = 0;
  for (const e of entries) {
    const bytes = Buffer.byteLength(e.html, 'utf8');
    index += `${e.digest} ${bytes} ${crc32(e.html)}\n`;
    blobBytes += bytes;
  }
  return `${index.length} ${blobBytes}\n${index}${entries.map((e) => e.html).join('')}`;
}

export class KeptMarkdown {
  /** A file up to this size is read whole when opened (one read instead of one per post: 4,000 reads cost ~50 ms); a larger one entry by entry. */
  static wholeBytes = 64 << 20;

  /** Where each entry's HTML is in the file: byte offset, length and CRC-32. */
  private readonly index = new Map<string, { at: number; bytes: number; crc: number }>();
  private fd: number | undefined;
  /** The file's bytes, when read whole. */
  private bytes: Buffer | undefined;
  /** Entries this thread made, not yet appended. */
  private pending: Entry[] = [];
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
    /** `length` bytes at `at` (fewer at the end of the file). */
    const bytesAt = (at: number, length: number): Buffer => {
      if (this.bytes) return this.bytes.subarray(at, at + length);
      const buf = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, at));
    };
    if (bytesAt(0, HEADER.length).toString('latin1') !== HEADER) {
      this.damaged = true;
      return;
    }
    let at = HEADER.length;
    while (at < size) {
      const head = bytesAt(at, HEAD_MAX).toString('latin1');
      const m = /^(\d{1,12}) (\d{1,15})\n/.exec(head);
      if (!m) break;
      const indexBytes = Number(m[1]);
      const blobBytes = Number(m[2]);
      const start = at + m[0].length;
      const end = start + indexBytes + blobBytes;
      if (end > size) break;
      const entries: { digest: string; bytes: number; crc: number }[] = [];
      let total = 0;
      for (const line of bytesAt(start, indexBytes).toString('latin1').split('\n')) {
        if (!line) continue;
        const [digest, length, sum] = line.split(' ');
        const bytes = Number(length);
        const crc = Number(sum);
        if (!digest || !Number.isSafeInteger(bytes) || bytes < 0 || !Number.isSafeInteger(crc)) break;
        entries.push({ digest, bytes, crc });
        total += bytes;
      }
      // An index that does not add up to its frame: the rest of the file is not trusted.
      if (total !== blobBytes) break;
      let blob = start + indexBytes;
      for (const { digest, bytes, crc } of entries) {
        this.index.set(digest, { at: blob, bytes, crc });
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

  /** The HTML kept for a body of digest `digest`, or undefined (also when the file cannot be read, or the bytes are not the ones kept). */
  get(digest: string): string | undefined {
    const bytes = this.read(digest);
    if (!bytes) return undefined;
    this.hits++;
    return bytes.toString('utf8');
  }

  /** An entry's bytes, when they have its CRC-32 (else it is forgotten, and the file written anew by the next save). */
  private read(digest: string): Buffer | undefined {
    const where = this.index.get(digest);
    if (!where || this.fd === undefined) return undefined;
    let buf: Buffer;
    if (this.bytes) buf = this.bytes.subarray(where.at, where.at + where.bytes);
    else {
      buf = Buffer.allocUnsafe(where.bytes);
      try {
        if (readSync(this.fd, buf, 0, where.bytes, where.at) !== where.bytes) return undefined;
      } catch {
        return undefined;
      }
    }
    if (buf.length === where.bytes && crc32(buf) === where.crc) return buf;
    this.index.delete(digest);
    this.damaged = true;
    return undefined;
  }

  /** Keep `html`, made now from a body of digest `digest` (appended by `flush`). */
  add(digest: string, html: string): void {
    if (this.has(digest)) return;
    this.pending.push({ digest, html });
    this.pendingDigests.add(digest);
    this.pendingBytes += html.length;
    if (this.pendingBytes >= FRAME_BYTES) this.flush();
  }

  /**
   * Append the entries made since the last flush as one frame (a cache that cannot be written
   * costs the next build markdown). Not to a damaged file: the main thread's `save` writes it anew.
   */
  flush(): void {
    if (!this.pending.length || this.damaged) return;
    const entries = frame(this.takePending());
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      // A new file is made whole, with its header, by a hard link (which fails if another build
      // made it meanwhile): two builds checking for an empty file would both write a header.
      if (!existsSync(this.file)) {
        const tmp = tempBeside(this.file);
        writeFileSync(tmp, HEADER + entries);
        try {
          linkSync(tmp, this.file);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        } finally {
          rmSync(tmp, { force: true });
        }
      }
      const fd = openSync(this.file, 'a');
      try {
        // One write: builds appending at once each add whole frames.
        writeSync(fd, entries);
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
   * (It may run after `close`, as a resident process saves once the summary is out: it opens
   * the file again for what it writes.)
   */
  save(live: ReadonlySet<string>): void {
    let dead = 0;
    for (const digest of this.index.keys()) if (!live.has(digest)) dead++;
    if (!this.damaged && dead <= Math.max(256, this.index.size / 2) && this.frames < 1024) this.flush();
    else {
      // Read again first: page workers may have appended frames since this thread opened it.
      const now = KeptMarkdown.open(this.file);
      // (What this thread made now wins over the file's entry of the same digest, which may be a damaged one: rewrite skips those.)
      for (const p of this.takePending()) {
        now.pending.push(p);
        now.pendingDigests.add(p.digest);
      }
      now.rewrite((digest) => live.has(digest));
      now.close();
    }
    this.tidy();
  }

  private takePending(): Entry[] {
    const entries = this.pending;
    this.pending = [];
    this.pendingDigests.clear();
    this.pendingBytes = 0;
    return entries;
  }

  /** Write the file anew (whole or not at all) with the entries `keep` keeps, kept and pending. */
  private rewrite(keep: (digest: string) => boolean): void {
    const entries: Entry[] = [];
    for (const digest of [...this.index.keys()]) {
      if (!keep(digest) || this.pendingDigests.has(digest)) continue;
      const html = this.read(digest);
      if (html) entries.push({ digest, html: html.toString('utf8') });
    }
    for (const p of this.takePending()) if (keep(p.digest)) entries.push(p);
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileAtomic(this.file, HEADER + frame(entries));
      // (Entries are still read from the file as it was opened: the descriptor holds it.)
      this.damaged = false;
    } catch {
      // the next build tries again
    }
  }

  /** The same content folder's files made by other generators are of no more use, nor those of folders not built for a week. */
  private tidy(): void {
    dropSiblings(this.file, 'markdown-', '.bin');
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
