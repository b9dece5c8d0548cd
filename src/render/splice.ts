/**
 * Stage "render", second part: pages whose only change is a layout piece they show (the footer,
 * after a text only it shows was edited). Each gets the recorded build's bytes with the new
 * piece's bytes where the old ones were (output/pieces.ts), instead of a render: a footer text at
 * 4,000 pages costs reading and writing them, not React rendering them again.
 *
 * A piece is made by rendering a page that shows it: the first such page is rendered, as are the
 * pages whose recorded file is gone or was changed since it was published (its stamp).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Route } from '../routes/table.ts';
import type { Writer } from '../output/writer.ts';
import { outputStamp } from '../output/survey.ts';
import { splice, type ReadsRecord } from '../output/pieces.ts';
import { pieceBytes, type RenderEnv } from './page.ts';
import { renderClaimed, routeCounter, type RenderTally } from './parallel.ts';

export interface Spliced {
  /** Pages spliced: where each piece now sits (flat: piece number in the recorded reads, start, end), by output file. */
  placed: Map<string, number[]>;
  /** Pages rendered instead. */
  rendered: Route[];
}

/**
 * Splice the changed pieces (`changed`, numbers in `reads.pieces`) into `routes`' recorded pages
 * (`placed`: where each page's pieces are)
 * (in `from`, the recorded build's web root; `expected` their stamps as published, `now` as taken
 * at this build's start), writing each with `writer`; a page that cannot be spliced is rendered
 * with `env` into `tally`.
 */
export async function splicePages(
  routes: readonly Route[],
  o: { from: string; reads: ReadsRecord; placed: ReadonlyMap<string, number[]>; changed: ReadonlySet<number>; expected?: Readonly<Record<string, string>>; now?: ReadonlyMap<string, string>; env: RenderEnv; writer: Writer; tally: RenderTally },
): Promise<Spliced> {
  const { reads, changed, env } = o;
  const out: Spliced = { placed: new Map(), rendered: [] };
  // Each page is read into one buffer, reused (4,700 pages of 35 KB allocated apiece cost the
  // garbage collector more than the reads), and written from its slices and the new pieces.
  let scratch = Buffer.allocUnsafe(0);
  const fresh = (n: number) => (changed.has(n) ? pieceBytes(env, reads.pieces[n]![0]) : undefined);
  for (const route of routes) {
    const f = route.file;
    const placed = o.placed.get(f)!;
    let ready = true;
    for (let i = 0; i < placed.length && ready; i += 3) if (changed.has(placed[i]!) && !fresh(placed[i]!)) ready = false;
    const want = o.expected?.[f];
    const source = `${o.from}/${f}`;
    // A page edited by hand since it was published, or gone, is rendered (as carrying does).
    if (ready && want !== undefined && (o.now?.get(f) ?? outputStamp(source)) === want) {
      // The stamp gives the size (`size:mtimeNs`); one byte more is asked for, to see the end.
      const size = Number(want.slice(0, want.indexOf(':')));
      if (scratch.length <= size) scratch = Buffer.allocUnsafe(Math.max(size + 1, scratch.length * 2));
      const old = scratch.subarray(0, readInto(source, scratch, size + 1));
      if (old.length === size && (placed.length === 0 || placed.at(-1)! <= size)) {
        const next = splice(old, placed, fresh);
        if (o.writer.writeParts) o.writer.writeParts(f, next.parts, next.bytes);
        else await o.writer.write(f, Buffer.concat(next.parts)); // a writer keeping what it is given: not the reused buffer
        out.placed.set(f, next.placed);
        continue;
      }
    }
    // Rendered here: the piece it shows is made now, and the pages after it get its bytes.
    await renderClaimed([route], routeCounter(), env, o.writer, o.tally);
    out.rendered.push(route);
  }
  return out;
}

/** Read up to `max` bytes of `file` into `into`; the count read. */
function readInto(file: string, into: Buffer, max: number): number {
  const fd = openSync(file, 'r');
  try {
    let got = 0;
    for (let n; got < max && (n = readSync(fd, into, got, max - got, got)) > 0; ) got += n;
    return got;
  } finally {
    closeSync(fd);
  }
}
