/** Issue 25: the build cache drops entries unused for a week, and scans for them at most once an hour (src/files.ts dropStale). */
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropStale } from '../../src/files.ts';
import { tmpDir } from '../helpers/site.ts';

const WEEK = 7 * 86_400_000;

function file(dir: string, name: string, ageMs: number): string {
  const p = path.join(dir, name);
  writeFileSync(p, 'x');
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(p, t, t);
  return p;
}

describe('[R-INC-1] the build cache', () => {
  it('drops entries of one kind unused for the given age, and leaves fresh ones and other kinds', () => {
    const dir = tmpDir();
    const old = file(dir, 'last-build-aaaaaaaaaaaa.json', WEEK + 60_000);
    const fresh = file(dir, 'last-build-bbbbbbbbbbbb.json', WEEK - 60_000);
    const other = file(dir, 'posts-cccccccccccc.v8', 2 * WEEK);
    dropStale(dir, 'last-build-', WEEK);
    expect([existsSync(old), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
  });

  it('scans at most once an hour: an entry gone stale meanwhile waits for the next scan', () => {
    const dir = tmpDir();
    dropStale(dir, 'posts-', WEEK);
    const marker = path.join(dir, '.tidied-posts-');
    expect(existsSync(marker)).toBe(true);
    const old = file(dir, 'posts-dddddddddddd.v8', 2 * WEEK);
    dropStale(dir, 'posts-', WEEK);
    expect(existsSync(old), 'scanned again within the hour').toBe(true);
    const hourAgo = (Date.now() - 3_700_000) / 1000;
    utimesSync(marker, hourAgo, hourAgo);
    dropStale(dir, 'posts-', WEEK);
    expect(existsSync(old)).toBe(false);
  });

  it('scans again when the marker is dated in the future (a clock set back)', () => {
    const dir = tmpDir();
    const marker = file(dir, '.tidied-code-', -86_400_000);
    const old = file(dir, 'code-eeeeeeeeeeee.v8', 2 * WEEK);
    dropStale(dir, 'code-', WEEK);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(marker)).toBe(true);
  });
});
