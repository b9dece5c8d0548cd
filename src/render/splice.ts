/**
 * Stage "render", second part: pages whose only change is a layout piece they show (the footer,
 * after a text only it shows was edited). Each gets the recorded build's bytes with the new
 * piece's bytes where the old ones were (output/pieces.ts), instead of a render: a footer text at
 * 4,000 pages costs reading and writing them, not React rendering them again.
 *
 * A piece is made by rendering a page that shows it: the first such page is rendered, as are the
 * pages whose recorded file is gone or was changed since it was published (its stamp).
 */
import { readFileSync } from 'node:fs';
import type { Route } from '../routes/table.ts';
import type { Writer } from '../output/writer.ts';
import { outputStamp } from '../output/carry.ts';
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
      const old = readFileSync(source);
      if (placed.length === 0 || placed.at(-1)! <= old.length) {
        const next = splice(old, placed, fresh);
        await o.writer.write(f, next.bytes);
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
