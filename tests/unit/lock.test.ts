/** The lock that keeps two builds of one output folder apart (src/output/lock.ts). */
import { spawn, spawnSync } from 'node:child_process';
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
    expect(readFileSync(file, 'utf8').split(' ')[0]).toBe(String(process.pid));
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
    expect(readFileSync(file, 'utf8').split(' ')[0]).toBe(String(process.pid));
    release();
  });

  it('takes over a lock whose process is a zombie (a resident build process killed in a container whose first process reaps nobody)', async () => {
    // A child of `sleep`, which never reaps it: once it exits it stays a zombie while sleep runs.
    const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30']);
    try {
      const pid = Number(await new Promise<string>((r) => parent.stdout.once('data', (c: Buffer) => r(c.toString().trim()))));
      const state = () => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      };
      for (let i = 0; i < 200 && state()[0] !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(state()[0]).toBe('Z');
      const file = path.join(dir(), 'build.lock');
      // Named as the lock names its holder: pid and start time (the 22nd field).
      writeFileSync(file, `${pid} ${state()[19]}`);
      const waited: number[] = [];
      const release = await lockBuild(file, (p) => waited.push(p));
      expect(waited).toEqual([]);
      release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('takes over a lock left without a pid (killed between creating and naming it) after a second', async () => {
    const file = path.join(dir(), 'build.lock');
    writeFileSync(file, '');
    const started = Date.now();
    const release = await lockBuild(file, () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(readFileSync(file, 'utf8').split(' ')[0]).toBe(String(process.pid));
    release();
  });

  it.skipIf(!existsSync('/proc/self/stat'))('takes over a lock naming a running process that is not its build (a pid used again: pid 1 of the next container), without waiting', async () => {
    for (const holder of ['1 1', `${process.pid} 1`]) {
      const file = path.join(dir(), 'build.lock');
      writeFileSync(file, holder);
      const waited: number[] = [];
      const release = await lockBuild(file, (pid) => waited.push(pid));
      expect(waited, holder).toEqual([]);
      release();
    }
    // A pid alone (pid 1 is always running), as an earlier version wrote it: cannot be vouched for, taken over.
    const file = path.join(dir(), 'build.lock');
    writeFileSync(file, '1');
    const got = await Promise.race([lockBuild(file, () => undefined), new Promise<undefined>((r) => setTimeout(r, 4000, undefined))]);
    expect(got, 'still waiting for pid 1 after 4 s').toBeTypeOf('function');
    got?.();
  });

  it('waits while the process named is its build, running', async () => {
    const file = path.join(dir(), 'build.lock');
    const holder = spawn('sleep', ['30']);
    const start = existsSync(`/proc/${holder.pid}/stat`) ? readFileSync(`/proc/${holder.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19] : '';
    writeFileSync(file, `${holder.pid} ${start}`.trim());
    const waited: number[] = [];
    let done = false;
    const locked = lockBuild(file, (pid) => waited.push(pid)).then((release) => ((done = true), release));
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    expect(waited).toEqual([holder.pid]);
    holder.kill('SIGKILL');
    (await locked)();
  });

  it('a cache folder that cannot be written is no reason to fail: the build goes on unlocked', async () => {
    const base = dir();
    writeFileSync(path.join(base, 'a-file'), '');
    const release = await lockBuild(path.join(base, 'a-file', 'build.lock'), () => undefined);
    expect(typeof release).toBe('function');
    release();
  });
});
