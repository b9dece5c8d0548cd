/**
 * The run's temporary folder (tests/setup/tmp-root.ts): on tmpfs only where there is one with room,
 * never over a TMPDIR the runner set, and open to every user like /tmp (errors.test runs a check as
 * an unprivileged user when the suite runs as root).
 */
import { existsSync, mkdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isTmpfs, useMemoryTmp } from '../setup/tmp-root.ts';
import { ROOT } from '../helpers/site.ts';

const hasTmpfs = isTmpfs('/dev/shm');

describe('the test run\'s temporary folder', () => {
  const saved = process.env.TMPDIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  it('keeps a TMPDIR that is set', () => {
    process.env.TMPDIR = '/somewhere/chosen';
    expect(useMemoryTmp('/dev/shm')).toBeUndefined();
    expect(process.env.TMPDIR).toBe('/somewhere/chosen');
  });

  it('stays on the system\'s temporary folder when the root is not a tmpfs', () => {
    delete process.env.TMPDIR;
    expect(useMemoryTmp(ROOT)).toBeUndefined();
    expect(process.env.TMPDIR).toBeUndefined();
  });

  it.skipIf(!hasTmpfs)('makes a folder of its own on a tmpfs, open like /tmp (1777), and points TMPDIR at it', () => {
    delete process.env.TMPDIR;
    const dir = useMemoryTmp('/dev/shm')!;
    try {
      expect(dir).toMatch(/^\/dev\/shm\/site-tests-/);
      expect(process.env.TMPDIR).toBe(dir);
      expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasTmpfs)('removes the folder of a run killed a day ago, and no other', () => {
    delete process.env.TMPDIR;
    const stale = `/dev/shm/site-tests-stale-${process.pid}`;
    const recent = `/dev/shm/site-tests-recent-${process.pid}`;
    for (const d of [stale, recent]) mkdirSync(d, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3_600_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    const dir = useMemoryTmp('/dev/shm')!;
    try {
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(recent)).toBe(true);
    } finally {
      for (const d of [dir, stale, recent]) rmSync(d, { recursive: true, force: true });
    }
  });
});
