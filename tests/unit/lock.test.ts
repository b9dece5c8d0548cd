/** The lock that keeps two builds of one output folder apart (src/output/lock.ts). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockBuild } from '../../src/output/lock.ts';

const dir = () => mkdtempSync(path.join(os.tmpdir(), 'site-lock-'));

describe('one build of an output folder at a time', () => {
  it('holds the lock with its pid and lets it go', async () => {
    const file = path.join(dir(), 'cache', 'build.lock');
    const release = await lockBuild(file, () => {
      throw new Error('nothing to wait for');
    });
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(file)).toBe(false);
  });

  it('takes over a lock whose process is gone (a build killed with SIGKILL), without waiting', async () => {
    const file = path.join(dir(), 'build.lock');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(file, String(gone));
    const waited: number[] = [];
    const release = await lockBuild(file, (pid) => waited.push(pid));
    expect(waited).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('takes over a lock left without a pid (killed between creating and naming it) after a second', async () => {
    const file = path.join(dir(), 'build.lock');
    writeFileSync(file, '');
    const started = Date.now();
    const release = await lockBuild(file, () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('a cache folder that cannot be written is no reason to fail: the build goes on unlocked', async () => {
    const base = dir();
    writeFileSync(path.join(base, 'a-file'), '');
    const release = await lockBuild(path.join(base, 'a-file', 'build.lock'), () => undefined);
    expect(typeof release).toBe('function');
    release();
  });
});
