/**
 * What the recorded build's pages read, and where its layout pieces sit in each page: the record
 * that lets an incremental build key pages on the texts they read and splice a changed piece (the
 * footer after a text only it shows changed) into the pages showing it, without rendering them
 * again (render/reads.ts says what is recorded; build.ts decides what is spliced).
 *
 * Kept beside the build record (`last-build-<id>.reads.json`) and tied to its build by id: the
 * check for "nothing changed" reads the record alone, and a reads file of another build (a kill
 * between the two writes) is no reads file: every page is then keyed on all its language's texts.
 */
import { promises as fs, readFileSync } from 'node:fs';
import { TextSets, type TextList } from '../render/reads.ts';
import { fileId } from './carry.ts';

export interface ReadsRecord {
  /** The build these pages are of (BuildRecord.build). */
  build: string;
  /** Text lists, each once (pages of a kind read the same). */
  textSets: string[][];
  /** The texts each page read (a number in `textSets`), by output file; a page not listed is keyed on every text of its language. */
  texts: Record<string, number>;
  /** Pieces placed in the pages: id (`lang\0key`), texts read (a number in `textSets`, -1: every text), whether it read the list of posts, its key. */
  pieces: [string, number, boolean, string][];
  /**
   * Each page's pieces in order, as text: piece number, first byte, the byte after it, comma-separated
   * (`placedOf` reads it). Text, so a page carried over passes it on without reading it.
   */
  placed: Record<string, string>;
}

/** The reads file of the record `recordFile`. */
export const readsFile = (recordFile: string): string => recordFile.replace(/\.json$/, '.reads.json');

/**
 * The reads this process last wrote, by their file's identity, as for the build record
 * (output/carry.ts): the resident process takes them back without parsing them (~4 ms a build at
 * 4,700 pages). A build only reads them (ReadsWriter copies what it keeps); frozen all the same.
 */
let written: { file: string; id: string; reads: ReadsRecord } | undefined;

/** The reads of build `build`, if recorded beside `recordFile` and of this shape; else undefined. */
export function readReads(recordFile: string, build: string | undefined): ReadsRecord | undefined {
  if (build === undefined) return undefined;
  try {
    const file = readsFile(recordFile);
    const r = written?.file === file && written.id === fileId(file) ? written.reads : (JSON.parse(readFileSync(file, 'utf8')) as ReadsRecord);
    return isReads(r) && r.build === build ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Write the reads of a build (before its record: a kill between the two leaves them unmatched). */
export async function writeReads(recordFile: string, reads: ReadsRecord): Promise<void> {
  const file = readsFile(recordFile);
  written = undefined;
  await fs.writeFile(`${file}.${process.pid}.tmp`, JSON.stringify(reads));
  await fs.rename(`${file}.${process.pid}.tmp`, file);
  const id = fileId(file);
  if (id) written = { file, id, reads: Object.freeze({ ...reads, textSets: Object.freeze(reads.textSets), texts: Object.freeze(reads.texts), pieces: Object.freeze(reads.pieces), placed: Object.freeze(reads.placed) }) as ReadsRecord };
}

/** The record's shape; each page's numbers are checked when used (`placedOf`, `listOf`). */
function isReads(r: unknown): r is ReadsRecord {
  const o = r as Record<string, unknown>;
  const obj = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!obj(r) || typeof o.build !== 'string' || !Array.isArray(o.textSets) || !obj(o.texts) || !Array.isArray(o.pieces) || !obj(o.placed)) return false;
  const sets = o.textSets as unknown[];
  if (!sets.every((s) => Array.isArray(s) && s.every((k) => typeof k === 'string'))) return false;
  const pieces = o.pieces as unknown[];
  return pieces.every((p) => Array.isArray(p) && p.length === 4 && typeof p[0] === 'string' && Number.isInteger(p[1]) && p[1] >= -1 && p[1] < sets.length && typeof p[2] === 'boolean' && typeof p[3] === 'string');
}

/** The texts page `file` read, as recorded (undefined: not recorded, or not a list: every text). */
export function listOf(reads: ReadsRecord, file: string): TextList | undefined {
  const n = reads.texts[file];
  return Number.isInteger(n) && n! >= 0 ? reads.textSets[n!] : undefined;
}

/** Where page `file`'s pieces sit, flat (piece number, start, end), if recorded and sound; else undefined. */
export function placedOf(reads: ReadsRecord, file: string): number[] | undefined {
  const text = reads.placed[file];
  if (typeof text !== 'string') return undefined;
  if (text === '') return [];
  const flat = text.split(',').map(Number);
  if (flat.length % 3 !== 0) return undefined;
  let end = 0;
  for (let i = 0; i < flat.length; i += 3) {
    const [n, a, b] = [flat[i]!, flat[i + 1]!, flat[i + 2]!];
    if (!Number.isInteger(n) || n < 0 || n >= reads.pieces.length || !Number.isInteger(a) || !Number.isInteger(b) || a < end || b < a) return undefined;
    end = b;
  }
  return flat;
}

/**
 * Builds the next reads record. Numbered as the recorded one (`from`), new lists and pieces
 * added: a page carried over passes its entries on as they are. Without `from` (a build that
 * rendered every page), numbered afresh.
 */
export class ReadsWriter {
  private readonly sets = new TextSets();
  private readonly pieces: { id: string; texts: number; posts: boolean }[] = [];
  private readonly pieceIndex = new Map<string, number>();
  private readonly texts: Record<string, number> = {};
  private readonly placed: Record<string, string> = {};

  constructor(private readonly from?: ReadsRecord) {
    if (!from) return;
    // Every entry at its recorded number (a kept page's numbers are passed on as they are).
    for (const list of from.textSets) this.sets.keep(list);
    for (const [id, texts, posts] of from.pieces) {
      const i = this.pieces.push({ id, texts, posts }) - 1;
      if (!this.pieceIndex.has(id)) this.pieceIndex.set(id, i);
    }
  }

  /** Number of a text list (the same list, the same number). */
  list(list: TextList): number {
    return this.sets.add(list);
  }

  /** Number of piece `id`; `made`: what it read when made by this build (else as recorded). */
  piece(id: string, made?: { texts: TextList | undefined; posts: boolean }): number {
    let i = this.pieceIndex.get(id);
    if (i === undefined) this.pieceIndex.set(id, (i = this.pieces.push({ id, texts: -1, posts: true }) - 1));
    if (made) Object.assign(this.pieces[i]!, { texts: made.texts ? this.list(made.texts) : -1, posts: made.posts });
    return i;
  }

  /**
   * A page rendered by this build: its texts (a number from `list`; undefined: all) and its pieces
   * (`n,start,end,…`), numbered by its thread; `numbers` maps those to this record's (undefined:
   * the same numbers).
   */
  rendered(file: string, list: number | undefined, placed: string, numbers?: readonly number[]): void {
    if (list === undefined) return; // keyed on every text: its pieces are never spliced either
    this.texts[file] = list;
    this.placed[file] = numbers && placed ? placed.split(',').map((v, i) => (i % 3 === 0 ? numbers[Number(v)] : v)).join(',') : placed;
  }

  /** The texts page `file` read, as this record has them (undefined: every text). */
  listOf(file: string): TextList | undefined {
    const n = this.texts[file];
    return n === undefined ? undefined : this.sets.lists[n];
  }

  /** A page kept from the recorded build (`placed`: where its pieces now sit, when spliced). */
  kept(file: string, placed?: readonly number[]): void {
    const from = this.from;
    if (!from || from.texts[file] === undefined || from.placed[file] === undefined) return;
    this.texts[file] = from.texts[file]!;
    this.placed[file] = placed ? placed.join(',') : from.placed[file]!;
  }

  /** The record, each piece keyed by `key` (what it read as of this build). */
  record(build: string, key: (id: string, made: { texts: TextList | undefined; posts: boolean }) => string): ReadsRecord {
    const pieces = this.pieces.map(({ id, texts, posts }): [string, number, boolean, string] => [id, texts, posts, key(id, { texts: texts < 0 ? undefined : this.sets.lists[texts], posts })]);
    return { build, textSets: this.sets.lists as string[][], texts: this.texts, pieces, placed: this.placed };
  }
}

/**
 * A page of the recorded build with pieces replaced: `old` its bytes, `placed` its pieces (flat:
 * number, start, end), `now(n)` a piece's new bytes, or undefined where it is unchanged. Returns
 * the new bytes as parts (slices of `old` and the new pieces: written as they are, not joined)
 * and where each piece now sits.
 */
export function splice(old: Buffer, placed: readonly number[], now: (n: number) => Buffer | undefined): { parts: Buffer[]; bytes: number; placed: number[] } {
  const parts: Buffer[] = [];
  const moved: number[] = [];
  let pos = 0;
  let total = 0;
  for (let i = 0; i < placed.length; i += 3) {
    const n = placed[i]!;
    const start = placed[i + 1]!;
    const end = placed[i + 2]!;
    const before = old.subarray(pos, start);
    const piece = now(n) ?? old.subarray(start, end);
    parts.push(before, piece);
    total += before.length;
    moved.push(n, total, total + piece.length);
    total += piece.length;
    pos = end;
  }
  parts.push(old.subarray(pos));
  return { parts, bytes: total + old.length - pos, placed: moved };
}

/** The layout pieces of one render environment: each marker is `open`, the piece's number and `-->`. */
export interface PieceSource {
  readonly open: string;
  readonly bytes: readonly Uint8Array[];
}

/**
 * A page's bytes from its text (render/page.ts `renderRouteHtml`): the text between markers
 * encoded, each marker replaced by its piece's shared buffer (never copied: one writev writes
 * them). `placed` gets each piece's number, first byte and the byte after it.
 */
export function pageParts(html: string, pieces: PieceSource, placed?: number[]): { parts: Uint8Array[]; bytes: number } {
  const { open, bytes } = pieces;
  let at = html.indexOf(open);
  if (at < 0) {
    const whole = Buffer.from(html);
    return { parts: [whole], bytes: whole.length };
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  let pos = 0;
  while (at >= 0) {
    const end = html.indexOf('-->', at);
    const n = Number(html.slice(at + open.length, end));
    const piece = bytes[n]!;
    if (at > pos) {
      // Encoded a part at a time: one page-sized encoding measured slower (a fresh zeroed buffer for each page).
      const before = Buffer.from(html.slice(pos, at));
      parts.push(before);
      total += before.length;
    }
    parts.push(piece);
    placed?.push(n, total, total + piece.length);
    total += piece.length;
    pos = end + 3;
    at = html.indexOf(open, pos);
  }
  if (pos < html.length) {
    const rest = Buffer.from(html.slice(pos));
    parts.push(rest);
    total += rest.length;
  }
  return { parts, bytes: total };
}
