/**
 * [R-INC-2] The client of the resident build process (bin/resident.js): when it is used, where its
 * socket goes (a folder of this user's alone), and its idle time.
 */
import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript, loaded by bin/site.js before the CLI bundle
import { idleMs, residentSocket, viaResident } from '../../bin/resident.js';
import { dropTemplatePackages } from '../../src/resident/modules.ts';

const base = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', XDG_RUNTIME_DIR: mkdtempSync(path.join(os.tmpdir(), 'xdg-')), ...extra });

describe('[R-INC-2] the resident build process client', () => {
  it('is not used with SITE_RESIDENT=off, nor in CI unless SITE_RESIDENT=on', () => {
    expect(residentSocket('/b', base({ SITE_RESIDENT: 'off' }))).toBeUndefined();
    expect(residentSocket('/b', base({ CI: 'true' }))).toBeUndefined();
    expect(residentSocket('/b', base({ CI: 'true', SITE_RESIDENT: 'on' }))).toMatch(/\.sock$/);
    expect(residentSocket('/b', base({ CI: 'false' }))).toMatch(/\.sock$/);
  });

  it('puts its socket in a folder of this user alone (mode 0700), short whatever the project path', () => {
    const env = base();
    const socket: string = residentSocket(`/${'long-folder-name/'.repeat(20)}cli-0123456789abcdef`, env);
    expect(path.dirname(socket)).toBe(path.join(env.XDG_RUNTIME_DIR, 'site'));
    expect(statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
    expect(path.basename(socket)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{12}\.sock$/);
  });

  it('refuses a socket folder others may enter, or a link in its place', () => {
    const open = base();
    mkdirSync(path.join(open.XDG_RUNTIME_DIR, 'site'));
    chmodSync(path.join(open.XDG_RUNTIME_DIR, 'site'), 0o755);
    expect(residentSocket('/b', open)).toBeUndefined();
    const linked = base();
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'elsewhere-'));
    chmodSync(elsewhere, 0o700);
    symlinkSync(elsewhere, path.join(linked.XDG_RUNTIME_DIR, 'site'));
    expect(residentSocket('/b', linked)).toBeUndefined();
  });

  it('one process per environment and bundle, at most one per project folder (the family, before the dash); the build date is not part of it', () => {
    const env = base();
    const a: string = residentSocket('/bundle-a', env);
    const b: string = residentSocket('/bundle-b', env);
    const other: string = residentSocket('/bundle-a', { ...env, NO_COLOR: '1' });
    const family = (s: string) => path.basename(s).split('-')[0];
    expect(new Set([a, b, other]).size).toBe(3);
    expect(family(b)).toBe(family(a));
    expect(family(other)).toBe(family(a));
    // Sent with each build instead (PER_BUILD), and variables a shell changes on its own: the same process.
    expect(residentSocket('/bundle-a', { ...env, SOURCE_DATE_EPOCH: '1790000000' })).toBe(a);
    expect(residentSocket('/bundle-a', { ...env, OLDPWD: '/elsewhere', _: '/usr/bin/env', SITE_RESIDENT: 'on' })).toBe(a);
  });

  it('none while the last one left for good reason (<socket>.off) for as long as one would have waited, nor where the path is too long for a socket', () => {
    const env = base({ SITE_RESIDENT_IDLE_S: '60' });
    const socket: string = residentSocket('/bundle-a', env);
    writeFileSync(`${socket}.off`, 'templates require marked');
    expect(residentSocket('/bundle-a', env)).toBeUndefined();
    const then = new Date(Date.now() - 61_000);
    utimesSync(`${socket}.off`, then, then);
    expect(residentSocket('/bundle-a', env)).toBe(socket);
    expect(residentSocket('/bundle-a', base({ XDG_RUNTIME_DIR: mkdtempSync(path.join(os.tmpdir(), `${'d'.repeat(90)}-`)) }))).toBeUndefined();
  });

  it("drops the templates' packages (and what they loaded) so the next build loads them afresh; names those that cannot be loaded again", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pkgs-'));
    const pkg = (name: string, json: object, files: Record<string, string>) => {
      mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
      writeFileSync(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, ...json }));
      for (const [f, text] of Object.entries(files)) writeFileSync(path.join(dir, 'node_modules', name, f), text);
    };
    pkg('counter', { main: 'index.js' }, { 'index.js': 'const inner = require("./inner.js"); module.exports = () => inner();', 'inner.js': 'let n = 0; module.exports = () => ++n;' });
    pkg('esm-counter', { type: 'module', exports: './index.js' }, { 'index.js': 'let n = 0; export const count = () => ++n;' });
    const req = createRequire(path.join(dir, 'templates.js'));
    const packages = new Map([
      ['counter', req.resolve('counter')],
      ['esm-counter', req.resolve('esm-counter')],
    ]);
    expect((req('counter') as () => number)()).toBe(1);
    expect((req('esm-counter') as { count(): number }).count()).toBe(1);
    expect(dropTemplatePackages(packages)).toEqual(['esm-counter']);
    // Afresh, with the module it loaded: its count starts again.
    expect((req('counter') as () => number)()).toBe(1);
    expect((req('esm-counter') as { count(): number }).count()).toBe(2);
  });

  it('sends each build its SOURCE_DATE_EPOCH, or null when unset (the resident process then unsets it for that build)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sock-'));
    const socket = path.join(dir, 's.sock');
    const requests: Record<string, unknown>[] = [];
    const server = net.createServer((conn) => {
      conn.once('data', (chunk) => {
        requests.push(JSON.parse(chunk.toString().split('\n')[0]!) as Record<string, unknown>);
        conn.end(`${JSON.stringify({ accepted: true })}\n${JSON.stringify({ exit: 0 })}\n`);
      });
    });
    await new Promise<void>((r) => server.listen(socket, r));
    const saved = process.env.SOURCE_DATE_EPOCH;
    try {
      process.env.SOURCE_DATE_EPOCH = '1790000000';
      expect(await viaResident(socket)).toBe(0);
      delete process.env.SOURCE_DATE_EPOCH;
      expect(await viaResident(socket)).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
      else process.env.SOURCE_DATE_EPOCH = saved;
      server.close();
    }
    expect(requests.map((r) => r.env)).toEqual([{ SOURCE_DATE_EPOCH: '1790000000' }, { SOURCE_DATE_EPOCH: null }]);
  });

  it('waits 30 minutes by default, SITE_RESIDENT_IDLE_S otherwise, a week at most (a timer holds 2^31 - 1 ms)', () => {
    expect(idleMs({})).toBe(1_800_000);
    expect(idleMs({ SITE_RESIDENT_IDLE_S: '5' })).toBe(5000);
    expect(idleMs({ SITE_RESIDENT_IDLE_S: 'soon' })).toBe(1_800_000);
    expect(idleMs({ SITE_RESIDENT_IDLE_S: '3000000' })).toBe(7 * 86_400_000);
    expect(idleMs({ SITE_RESIDENT_IDLE_S: '3000000' })).toBeLessThan(2 ** 31);
  });
});
