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
import type { TextList } from '../render/reads.ts';

export interface ReadsRecord {
  /** The build these pages are of (BuildRecord.build). */
  build: string;
  /** Text lists, each once (pages of a kind read the same). */
  textSets: string[][];
  /** The texts each page read (a number in `textSets`), by output file; a page not listed is keyed on every text of its language. */
  texts: Record<string, number>;
  /** Pieces placed in the pages: id (`lang\0key`), texts read (a number in `textSets`, -1: every text), whether it read the list of posts, its key. */
  pieces: [string, number, boolean, string][];
  /** Each page's pieces in order: piece number, first byte, the byte after it (flat). */
  placed: Record<string, number[]>;
}

/** The reads file of the record `recordFile`. */
export const readsFile = (recordFile: string): string => recordFile.replace(/\.json$/, '.reads.json');

/** The reads of build `build`, if recorded beside `recordFile` and of this shape; else undefined. */
export function readReads(recordFile: string, build: string | undefined): ReadsRecord | undefined {
  if (build === undefined) return undefined;
  try {
    const r = JSON.parse(readFileSync(readsFile(recordFile), 'utf8')) as ReadsRecord;
    return isReads(r) && r.build === build ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Write the reads of a build (before its record: a kill between the two leaves them unmatched). */
export async function writeReads(recordFile: string, reads: ReadsRecord): Promise<void> {
  const file = readsFile(recordFile);
  await fs.writeFile(`${file}.${process.pid}.tmp`, JSON.stringify(reads));
  await fs.rename(`${file}.${process.pid}.tmp`, file);
}

function isReads(r: unknown): r is ReadsRecord {
  const o = r as Record<string, unknown>;
  const obj = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const int = (v: unknown) => Number.isInteger(v);
  if (!obj(r) || typeof o.build !== 'string' || !Array.isArray(o.textSets) || !obj(o.texts) || !Array.isArray(o.pieces) || !obj(o.placed)) return false;
  const sets = o.textSets as unknown[];
  if (!sets.every((s) => Array.isArray(s) && s.every((k) => typeof k === 'string'))) return false;
  if (!Object.values(o.texts as object).every((n) => int(n) && n >= 0 && n < sets.length)) return false;
  const pieces = o.pieces as unknown[];
  if (!pieces.every((p) => Array.isArray(p) && p.length === 4 && typeof p[0] === 'string' && int(p[1]) && p[1] >= -1 && p[1] < sets.length && typeof p[2] === 'boolean' && typeof p[3] === 'string')) return false;
  return Object.values(o.placed as object).every(
    (a) => Array.isArray(a) && a.length % 3 === 0 && a.every((n, i) => int(n) && n >= 0 && (i % 3 !== 0 || n < pieces.length) && (i % 3 !== 2 || n >= a[i - 1])),
  );
}

/** Builds the next reads record: text lists and pieces numbered as they come. */
export class ReadsWriter {
  readonly textSets: TextList[] = [];
  private readonly setIndex = new Map<string, number>();
  readonly pieces: [string, number, boolean, string][] = [];
  private readonly pieceIndex = new Map<string, number>();
  readonly texts: Record<string, number> = {};
  readonly placed: Record<string, number[]> = {};

  /** Number of a text list (the same list, the same number). */
  list(list: TextList): number {
    const sig = JSON.stringify(list);
    let i = this.setIndex.get(sig);
    if (i === undefined) {
      i = this.textSets.push(list) - 1;
      this.setIndex.set(sig, i);
    }
    return i;
  }

  /** Number of piece `id` (its texts `list`, undefined: all; `key` as now). */
  piece(id: string, list: TextList | undefined, posts: boolean, key: () => string): number {
    let i = this.pieceIndex.get(id);
    if (i === undefined) {
      i = this.pieces.push([id, list ? this.list(list) : -1, posts, key()]) - 1;
      this.pieceIndex.set(id, i);
    }
    return i;
  }

  /** A page's texts (undefined: all) and its pieces ([id, start, end]...), `piece` numbering each id. */
  page(file: string, list: TextList | undefined, placed: readonly (string | number)[], piece: (id: string) => number): void {
    if (!list) return; // keyed on every text: its pieces are never spliced either
    this.texts[file] = this.list(list);
    const flat: number[] = [];
    for (let i = 0; i < placed.length; i += 3) flat.push(piece(placed[i] as string), placed[i + 1] as number, placed[i + 2] as number);
    this.placed[file] = flat;
  }

  record(build: string): ReadsRecord {
    return { build, textSets: this.textSets as string[][], texts: this.texts, pieces: this.pieces, placed: this.placed };
  }
}

/**
 * A page of the recorded build with pieces replaced: `old` its bytes, `placed` its pieces (flat:
 * number, start, end), `now(n)` a piece's new bytes, or undefined where it is unchanged. Returns
 * the new bytes and where each piece now sits.
 */
export function splice(old: Buffer, placed: readonly number[], now: (n: number) => Buffer | undefined): { bytes: Buffer; placed: number[] } {
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
  return { bytes: Buffer.concat(parts), placed: moved };
}
