/**
 * The suite's own machinery (issue "fast feedback"): its tiers, the shared build's key, the timing
 * report that names anything over 10 s, and the speed guard's rule. The figures themselves are
 * measured by `npm run bench:tests` and `npm run bench:compare` (docs/benchmarks.md), not asserted.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import config from '../../vitest.config.ts';
import TimingReporter from '../setup/timing-reporter.ts';
import { sharedBuildKey } from '../setup/shared-site.ts';
import { median, verdict } from '../../benchmarks/verdict.js';
import { copyContent, ROOT } from '../helpers/site.ts';

describe('[R-FAST-2] tiers', () => {
  it('vitest has the four tiers, each runnable alone, and every test file is in exactly one', () => {
    const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[] } }[];
    expect(projects.map((p) => p.test.name)).toEqual(['unit', 'integration', 'hosts', 'e2e']);
    const files = readdirSync(path.join(ROOT, 'tests'), { recursive: true }).map(String).filter((f) => f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) {
      const tiers = projects.filter((p) => p.test.include.some((glob) => path.matchesGlob(`tests/${f}`, glob)));
      expect(tiers.map((t) => t.test.name), f).toHaveLength(1);
    }
  });
});

describe('[R-FAST-1] the shared build', () => {
  it('is keyed by the content: the same files give the same key, a one-byte edit another', () => {
    const content = copyContent();
    const key = sharedBuildKey(content);
    expect(sharedBuildKey(content)).toBe(key);
    writeFileSync(path.join(content, 'data', 'health.yaml'), '# edited\n', { flag: 'a' });
    expect(sharedBuildKey(content)).not.toBe(key);
  });
});

describe('[R-FAST-3] timing report', () => {
  /** A test module as the reporter reads it: a file, its durations and its tests. */
  const module = (file: string, collect: number, duration: number, tests: [string, number][]) =>
    ({
      moduleId: path.join(process.cwd(), file),
      diagnostic: () => ({ collectDuration: collect, duration }),
      children: { allTests: () => tests.map(([name, ms]) => ({ name, diagnostic: () => ({ duration: ms }) })) },
    }) as never;

  it('names every test, collection and hook time over 10 s, and says so when there is none', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      new TimingReporter().onTestRunEnd([module('tests/a.test.ts', 500, 3_000, [['quick', 1_000], ['slow', 1_500]]), module('tests/b.test.ts', 11_000, 25_000, [['long one', 12_000]])]);
      const text = log.mock.calls.map((c) => String(c[0])).join('\n');
      expect(text).toMatch(/longest test 12\.0 s \(tests\/b\.test\.ts › long one\)/);
      expect(text).toMatch(/over 10 s: test 12\.0 s .*long one.*; collection 11\.0 s \(tests\/b\.test\.ts\); hooks 13\.0 s \(tests\/b\.test\.ts\)/);
      log.mockClear();
      new TimingReporter().onTestRunEnd([module('tests/a.test.ts', 500, 3_000, [['quick', 1_000]])]);
      expect(log.mock.calls.map((c) => String(c[0])).join('\n')).toContain('nothing over 10 s');
    } finally {
      log.mockRestore();
    }
  });
});

describe('[R-FAST-5] the speed guard', () => {
  it('fails only on a median more than 10 % slower whose runs do not overlap', () => {
    expect(median([5, 1, 3])).toBe(3);
    // 20 % slower and every run of the tree slower than every run of the commit: fails.
    expect(verdict([120, 121, 119, 122, 120], [100, 101, 99, 100, 102])).toMatchObject({ fails: true, verdict: 'SLOWER (fails the guard)' });
    // 20 % slower median, but one run of the tree is as fast as the commit's slowest: noise.
    expect(verdict([120, 121, 100, 122, 120], [100, 101, 99, 100, 102])).toMatchObject({ fails: false });
    // 5 % slower, apart: within the limit.
    expect(verdict([105, 106, 105, 107, 105], [100, 101, 100, 100, 100]).fails).toBe(false);
    expect(verdict([80, 81, 79], [100, 101, 99]).verdict).toBe('faster');
  });
});
