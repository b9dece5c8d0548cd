/**
 * `site watch` replaces its render worker when the worker keeps too much memory (the code of old
 * template versions, which V8 never frees), not when a rebuild merely left garbage behind: at 4,000
 * posts each rebuild leaves ~30 MB, and counting it replaced the worker (a full build, ~4 s) every
 * 6-8 edits (R-BUILD-7: flat memory, without stalls).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { keptHeap } from '../../src/watch/worker.ts';

const used = () => getHeapStatistics().used_heap_size;

describe('[R-BUILD-7] the render worker\'s memory check', () => {
  it('is the heap the last full collection left, not the garbage made since', async () => {
    const heap = keptHeap();
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    await new Promise((r) => setTimeout(r, 20)); // the collection's entry is delivered after it
    const kept = heap();
    // ~40 MB that outlives the young generation, then dropped: garbage until the next full collection.
    let junk: { i: number; s: string }[] | undefined = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `${'x'.repeat(40)}${i}` }));
    expect(junk.length).toBe(400_000);
    junk = undefined;
    expect(used() - kept).toBeGreaterThan(20 * 1024 * 1024);
    expect(heap()).toBe(kept);
  });
});
