/**
 * A reporter that prints, after every run, the longest single test, the longest collection of a
 * file (its top-level code) and the most hook time of a file (beforeAll/afterAll: the file's time
 * less its tests', an upper bound for any one hook), and names everything over LIMIT_MS. The
 * suite's budget is no test, hook or collection over 10 s on a busy CI machine: this is where a
 * run shows it. With SITE_TEST_TIMING=<file> it also writes these figures as JSON (bench:tests).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const LIMIT_MS = 10_000;

interface Timing {
  name: string;
  ms: number;
}

export default class TimingReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const tests: Timing[] = [];
    const collections: Timing[] = [];
    const hooks: Timing[] = [];
    for (const m of modules) {
      const file = path.relative(process.cwd(), m.moduleId);
      const d = m.diagnostic();
      let sum = 0;
      for (const t of m.children.allTests()) {
        const ms = t.diagnostic()?.duration ?? 0;
        sum += ms;
        tests.push({ name: `${file} › ${t.name}`, ms });
      }
      collections.push({ name: file, ms: d.collectDuration });
      hooks.push({ name: file, ms: Math.max(0, d.duration - sum) });
    }
    const top = (list: Timing[]) => list.reduce<Timing>((a, b) => (b.ms > a.ms ? b : a), { name: '-', ms: 0 });
    const s = (t: Timing) => `${(t.ms / 1000).toFixed(1)} s (${t.name.slice(0, 110)})`;
    const over = [...tests.map((t) => ({ ...t, kind: 'test' })), ...collections.map((t) => ({ ...t, kind: 'collection' })), ...hooks.map((t) => ({ ...t, kind: 'hooks' }))].filter((t) => t.ms > LIMIT_MS);
    console.log(`\nlongest test ${s(top(tests))}\nlongest collection ${s(top(collections))}\nmost hook time in a file ${s(top(hooks))}`);
    console.log(over.length ? `over ${LIMIT_MS / 1000} s: ${over.map((o) => `${o.kind} ${s(o)}`).join('; ')}` : `nothing over ${LIMIT_MS / 1000} s`);
    const out = process.env.SITE_TEST_TIMING;
    if (out) writeFileSync(out, JSON.stringify({ tests, collections, hooks }));
  }
}
