/**
 * [R-INC-3] `npm run bench:scale` reports this project's rebuilds of one output folder (nothing
 * changed, one post edited, a text on every page edited, a price edited) beside the peers' full
 * builds of the same posts, and says what each rebuild rendered, so the table never times another
 * case than it names.
 * Run at a tiny size: the benchmark itself is under test here, not the speed (docs/benchmarks.md).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpDir } from '../helpers/site.ts';
import { isTmpfs } from '../setup/tmp-root.ts';

const onTmpfs = isTmpfs('/dev/shm');

interface Timed {
  medianMs: number;
  timesMs: number[];
  rendered: number[];
  spliced: number[];
  pages: number;
}
interface Report {
  results: { target: string; posts: number; langs: number; generator: string; medianMs?: number; pages?: number }[];
  rebuilds: ({ target: string; posts: number; langs: number; resident: Record<'none' | 'post' | 'text' | 'price', Timed> } & Record<'none' | 'post' | 'text' | 'price', Timed>)[];
}

describe('[R-INC-3] bench:scale reports rebuilds beside full builds', () => {
  it('[R-INC-3] one-post, one-text and no-change rebuilds, what each rendered, and their ratio to each peer it builds', () => {
    const target = onTmpfs ? 'tmpfs' : 'disk';
    const json = path.join(tmpDir('bench-scale-'), 'report.json');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'benchmarks/scale.js'), '--posts', '6', '--langs', '1', '--runs', '1', '--target', target, '--json', json, '--peers', 'hugo'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.rebuilds).toHaveLength(1);
    const rebuild = report.rebuilds[0]!;
    expect(rebuild).toMatchObject({ target, posts: 6, langs: 1 });
    const project = report.results.find((x) => x.generator === 'project')!;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) / 2]!;
    // Each rebuild in a new process and in the resident build process: the same work either way.
    for (const kind of ['none', 'post', 'text', 'price'] as const) {
      for (const mode of ['new', 'resident'] as const) {
        const t = mode === 'new' ? rebuild[kind] : rebuild.resident[kind];
        // As many timed runs of each as --runs says (a median; one here), every one a real build.
        expect(t.timesMs, kind).toHaveLength(1);
        for (const ms of t.timesMs) expect(ms, kind).toBeGreaterThan(0);
        expect(t.medianMs, kind).toBe(median(t.timesMs));
        // Out of every page of the build: as many as the full build wrote.
        expect(t.pages, kind).toBe(project.pages);
        expect({ rendered: t.rendered, spliced: t.spliced }, `${kind} (${mode})`).toEqual({ rendered: rebuild[kind].rendered, spliced: rebuild[kind].spliced });
      }
    }
    // What each rebuild did: nothing, the edited post's page alone, and for the footer's text one
    // page rendered (which makes the new footer) and the footer spliced into every other page showing it.
    expect(rebuild.none.rendered).toEqual([0]);
    expect(rebuild.none.spliced).toEqual([0]);
    expect(rebuild.post.rendered).toEqual([1]);
    expect(rebuild.post.spliced).toEqual([0]);
    expect(rebuild.text.rendered).toEqual([1]);
    expect(rebuild.text.pages).toBeGreaterThan(6);
    const spliced = rebuild.text.spliced[0]!;
    expect(rebuild.text.spliced).toEqual([spliced]);
    expect(spliced).toBeGreaterThan(6); // the posts' pages at least
    expect(spliced).toBeLessThan(rebuild.text.pages);
    // A price: the pages that show the rates, not the posts (no piece shows a price).
    const priced = rebuild.price.rendered[0]!;
    expect(rebuild.price.rendered).toEqual([priced]);
    expect(priced).toBeGreaterThan(0);
    expect(priced).toBeLessThan(rebuild.price.pages - 6);
    expect(rebuild.price.spliced).toEqual([0]);

    // The table: one row per rebuild, its ratio to each peer's full build that ran (n/a for one not installed or left out with --peers).
    const rows = r.stdout.split('\n').filter((l) => l.startsWith(`| ${target} | 6 x 1 |`));
    const peer = (id: string) => report.results.find((x) => x.generator === id && x.medianMs !== undefined)?.medianMs;
    const labels = { none: 'nothing changed', post: 'one post edited', text: 'a text on every page edited', price: 'a price edited' };
    expect(rows).toHaveLength(8);
    for (const [kind, label] of Object.entries(labels) as [keyof typeof labels, string][]) for (const mode of ['new', 'resident'] as const) {
      const cells = rows.find((l) => l.includes(`| ${label} | ${mode} |`))?.split('|').map((c) => c.trim());
      expect(cells, `${label} (${mode})`).toBeDefined();
      const [, , , , , rendered, runs, wall, hugo, eleventy] = cells!;
      const t = mode === 'new' ? rebuild[kind] : rebuild.resident[kind];
      expect(rendered).toBe(`${t.rendered[0]} of ${t.pages}${t.spliced[0] ? ` (${t.spliced[0]} spliced)` : ''}`);
      expect(runs).toBe('1');
      expect(wall).toBe((t.medianMs / 1000).toFixed(2));
      const ratio = (id: string) => (peer(id) ? (t.medianMs / peer(id)!).toFixed(2) : 'n/a');
      expect(hugo, `${label} / Hugo`).toBe(ratio('hugo'));
      // Eleventy left out (--peers hugo: its build and start-up were a third of this test's time).
      expect(eleventy, `${label} / Eleventy`).toBe('n/a');
    }
  });
});
