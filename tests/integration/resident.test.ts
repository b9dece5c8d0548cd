/**
 * [R-INC-1] [R-INC-2] The resident build process (src/resident/server.ts, bin/resident.js): a
 * `site build` that finds none builds in its own process and starts one; the next builds are sent
 * to it and do exactly what a build in a new process does (the same output, byte for byte, the
 * same exit codes and messages), also after a template edit, bad content or a refused folder. It
 * leaves when idle; killed between or in the middle of builds, the next build runs in its own
 * process; Ctrl-C on its client stops the build as it would stop a build of its own.
 *
 * A test that stops, kills or replaces its resident process gives its builds an environment of
 * their own (RESIDENT_TEST), so it has its own, found by that variable and stopped when the test
 * ends; the others share one (`sharedResident`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { differencesFromCold, fresh, ownTemplates, snapshot, summary } from '../helpers/incremental.ts';
import { edit, EPOCH, ROOT, runCli, runMain, tmpDir, type CliResult } from '../helpers/site.ts';

const tests: string[] = [];
/** An environment of its own for one test's builds: resident processes are told apart by their environment. */
function residentEnv(extra: Record<string, string> = {}): Record<string, string> {
  const id = `t${process.pid}-${Date.now()}-${tests.length}`;
  tests.push(id);
  return { SITE_RESIDENT: 'on', SITE_RESIDENT_IDLE_S: '60', RESIDENT_TEST: id, ...extra };
}

/** The resident processes started with `env` (Linux: their command line and environment in /proc). */
function residents(env: Record<string, string>): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes('--resident')) continue;
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`RESIDENT_TEST=${env.RESIDENT_TEST}`)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The resident process started with `env`, once it listens on its socket. */
async function listening(env: Record<string, string>): Promise<number> {
  return until('the resident process to listen', () => residents(env).find((pid) => findSocket(pid)));
}

async function until<T>(what: string, probe: () => T | undefined | false, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The pid the summary names when the resident process built (undefined: built in its own process). */
const builtBy = (r: CliResult) => Number(/built by the resident build process \(pid (\d+)/.exec(r.stdout)?.[1]) || undefined;

afterEach(() => {
  for (const id of tests.splice(0)) {
    for (const pid of residents({ RESIDENT_TEST: id })) {
      // (Stopped by a test that failed before it let it go on.)
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGTERM');
    }
  }
});

/** A resident process of its own for one test (`extra`: its environment), started by a first build of `content` into `out`. */
async function started(content: string, out: string, extra: Record<string, string> = {}): Promise<{ env: Record<string, string>; pid: number }> {
  const env = residentEnv(extra);
  const first = await build(content, out, env);
  expect(first.code, first.stderr).toBe(0);
  return { env, pid: await listening(env) };
}

/**
 * The file's shared resident process, for the tests that need one that builds and nothing else of
 * it (it is not stopped, sent away or given an environment of its own): the first build of
 * `content` into `out` is its own, or starts it. (Starting one per test cost each a cold build.)
 */
let sharedEnv: Record<string, string> | undefined;
async function sharedResident(content: string, out: string): Promise<{ env: Record<string, string>; pid: number }> {
  sharedEnv ??= { SITE_RESIDENT: 'on', SITE_RESIDENT_IDLE_S: '120', RESIDENT_TEST: `t${process.pid}-${Date.now()}-shared` };
  const first = await build(content, out, sharedEnv);
  expect(first.code, first.stderr).toBe(0);
  return { env: sharedEnv, pid: await listening(sharedEnv) };
}
afterAll(() => {
  for (const pid of sharedEnv ? residents(sharedEnv) : []) process.kill(pid, 'SIGTERM');
});

/** Every output file by its content's hash (comparing the buffers themselves one byte at a time took seconds). */
const state = (out: string) => new Map([...snapshot(out)].map(([f, b]) => [f, createHash('sha256').update(b).digest('hex')]));

const build = (content: string, out: string, env: Record<string, string>) => runCli(['build', '--content', content, '--out', out], env);

/** A build of `content` into `out` that succeeded and that the resident process `pid` served. */
async function served(content: string, out: string, env: Record<string, string>, pid: number): Promise<CliResult> {
  const r = await build(content, out, env);
  expect(r.code, r.stderr).toBe(0);
  expect(builtBy(r)).toBe(pid);
  return r;
}

/**
 * A preload that holds a build before its first carried page (its first hard link) until a gate
 * file exists, as tests/helpers/incremental.ts pausedAtCarry does: in the resident process (on its
 * file thread, output/io-thread.ts) and in a client that builds itself. `<gate>.ready` holds the
 * pid of the process held.
 */
function linkGate(): { hook: string; gate: string } {
  const dir = tmpDir('resident-link-');
  const gate = path.join(dir, 'go');
  const hook = path.join(dir, 'hook.cjs');
  writeFileSync(
    hook,
    `const fs = require('fs'); const orig = fs.linkSync; let first = true;
fs.linkSync = function (...a) {
  if (first && !/\\.(lock|takeover)$/.test(String(a[1]))) {
    first = false;
    fs.writeFileSync(${JSON.stringify(gate)} + '.ready', String(process.pid));
    while (!fs.existsSync(${JSON.stringify(gate)})) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  return orig.apply(this, a);
};
require('module').syncBuiltinESMExports();
`,
  );
  return { hook, gate };
}

describe('[R-INC-2] site build through the resident build process', () => {
  it('[R-INC-2] the first build starts it; later builds, after a post and a text edit, are its and byte-identical to cold builds', async () => {
    const { content, out } = fresh({ english: true });
    const env = residentEnv();
    const first = await build(content, out, env);
    expect(first.code, first.stderr).toBe(0);
    expect(builtBy(first)).toBeUndefined();
    const pid = await listening(env);

    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nOne more sentence, built by the resident process.\n');
    const post = await served(content, out, env, pid);
    expect(summary(post).rendered).toBeLessThan(summary(post).total);
    // Its unchanged pages were linked on its file thread (output/io-thread.ts).
    expect(await differencesFromCold(content, out)).toEqual([]);

    edit(content, 'i18n/en.yaml', /^( {2}madeWith: .*)$/m, '$1 (edited)');
    await served(content, out, env, pid);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('[R-INC-2] a build in a process of its own in between (a deploy job): it builds on the record that build wrote, not on its own', async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await sharedResident(content, out);
    // (A build that writes its record: the one it keeps in memory.)
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nBuilt by the resident process.\n');
    expect(builtBy(await build(content, out, env))).toBe(pid);
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nEdited by a build of its own.\n');
    // The CLI's own entry in this process: a build of its own, without starting one.
    const alone = await runMain(['build', '--content', content, '--out', out], { ...env, SITE_RESIDENT: 'off' });
    expect(alone.code, alone.stderr).toBe(0);
    expect(builtBy(alone)).toBeUndefined();
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nAnd again by the resident process.\n');
    const after = await build(content, out, env);
    expect(builtBy(after)).toBe(pid);
    expect(summary(after).rendered, after.stdout).toBeLessThan(summary(after).total);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('[R-INC-2] nothing changed, then a template edited between two of its builds: built from the new template', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    const { env, pid } = await sharedResident(content, out);
    // Nothing changed: said by it, as a build of its own says it.
    const same = await build(content, out, env);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^Nothing changed since the last build/);
    expect(builtBy(same)).toBe(pid);
    const footer = path.join(templates, 'components', 'Footer.tsx');
    writeFileSync(footer, readFileSync(footer, 'utf8').replace('<footer', '<footer data-edited="yes"'));
    const r = await build(content, out, env);
    expect(r.code, r.stderr).toBe(0);
    expect(builtBy(r)).toBe(pid);
    expect(r.stdout).toMatch(/rendered every page: the templates/);
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('data-edited="yes"');
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('[R-INC-1] bad content and a refused output folder: the same messages and exit codes as a build of its own, and it goes on serving', async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await sharedResident(content, out);
    const before = state(out);

    edit(content, 'data/rates.yaml', /price: \d+/, 'price: twelve');
    const bad = await build(content, out, env);
    const alone = await build(content, out, { ...env, SITE_RESIDENT: 'off' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('data/rates.yaml:');
    expect(bad.stderr).toBe(alone.stderr);
    expect(bad.stdout).toBe(alone.stdout);
    expect(state(out)).toEqual(before);

    edit(content, 'data/rates.yaml', 'price: twelve', 'price: 12');
    writeFileSync(path.join(out, 'notes.txt'), 'mine');
    const refused = await build(content, out, env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('notes.txt');
    rmSync(path.join(out, 'notes.txt'));

    const good = await build(content, out, env);
    expect(good.code, good.stderr).toBe(0);
    expect(builtBy(good)).toBe(pid);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('[R-INC-2] it leaves after its idle time or on SIGTERM, and removes its socket', async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await started(content, out, { SITE_RESIDENT_IDLE_S: '1' });
    const socket = findSocket(pid)!;
    // Only its user may connect: a build runs with its rights on the paths it is sent. The socket
    // is made under umask 077 (0700) and then set to 0600; the test may see either moment, and
    // what matters is that no group or other bit is ever set.
    expect(statSync(socket).mode & 0o077).toBe(0);
    expect(builtBy(await build(content, out, env))).toBe(pid);
    await until('it to leave', () => residents(env).length === 0, 8000);
    expect(existsSync(socket)).toBe(false);
    // Stopped between builds (pkill, a shutdown), the next one leaves the same way.
    expect((await build(content, out, env)).code).toBe(0);
    const next = await listening(env);
    expect(findSocket(next)).toBe(socket);
    process.kill(next, 'SIGTERM');
    await until('it to leave', () => residents(env).length === 0);
    expect(existsSync(socket)).toBe(false);
  });

  it('[R-INC-2] killed between builds: the next build runs in its own process and starts another', async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await started(content, out);
    const socketOf = findSocket(pid)!;
    process.kill(pid, 'SIGKILL');
    await until('it to go', () => residents(env).length === 0);
    // Another resident process killed earlier left its socket beside: the next one removes it.
    const stale = path.join(path.dirname(socketOf), '00000000-00000000dead.sock');
    const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`]);
    await new Promise((r) => holder.stdout.once('data', r));
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    expect(existsSync(stale)).toBe(true);
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nEdited after a kill.\n');
    const r = await build(content, out, env);
    expect(r.code, r.stderr).toBe(0);
    expect(builtBy(r)).toBeUndefined();
    const next = await listening(env);
    expect(next).not.toBe(pid);
    await until('the stale socket to go', () => !existsSync(stale));
    expect(builtBy(await build(content, out, env))).toBe(next);
  });

  it('[R-INC-2] killed in the middle of a build: its client builds in its own process, and the output is a cold build', async () => {
    const { content, out } = fresh({ english: true });
    const { hook, gate } = linkGate();
    const env = residentEnv({ NODE_OPTIONS: `--require ${hook}` });
    // A cold build carries nothing; the second (nothing changed) starts the resident process.
    expect((await build(content, out, { ...env, SITE_RESIDENT: 'off' })).code).toBe(0);
    const second = await build(content, out, env);
    expect(second.code, second.stderr).toBe(0);
    expect(builtBy(second)).toBeUndefined();
    const pid = await listening(env);
    expect(builtBy(await build(content, out, env))).toBe(pid);

    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nEdited while it was killed.\n');
    const running = build(content, out, env);
    const held = Number(await until('the resident build to reach its carry', () => existsSync(`${gate}.ready`) && readFileSync(`${gate}.ready`, 'utf8')));
    expect(held).toBe(pid);
    rmSync(`${gate}.ready`);
    process.kill(pid, 'SIGKILL');
    // Its client goes on in its own process, which the same preload holds at its own carry.
    const client = Number(await until('the client to build in its own process', () => existsSync(`${gate}.ready`) && readFileSync(`${gate}.ready`, 'utf8')));
    expect(client).not.toBe(pid);
    writeFileSync(gate, '');
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the resident build process stopped before it finished; building in this process');
    expect(builtBy(r)).toBeUndefined();
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('[R-INC-2] a page removed from the live output while its file thread links the unchanged ones: nothing is published, it says so, and the next build renders the page', async () => {
    const { content, out } = fresh({ english: true });
    const { hook, gate } = linkGate();
    const { env, pid } = await started(content, out, { NODE_OPTIONS: `--require ${hook}` });
    const before = state(out);
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nEdited while a page went.\n');
    const running = build(content, out, env);
    expect(Number(await until('the resident build to reach its links', () => existsSync(`${gate}.ready`) && readFileSync(`${gate}.ready`, 'utf8')))).toBe(pid);
    // A page no post edit touches: carried, its stamp taken before it went.
    rmSync(path.join(out, 'legal.html'));
    writeFileSync(gate, '');
    const r = await running;
    expect(r.code).toBe(1);
    expect(builtBy(r)).toBeUndefined();
    expect(r.stderr).toContain(`${path.join(out, 'legal.html')} went from the output while this build ran: nothing was published; build again`);
    before.delete('legal.html');
    expect(state(out)).toEqual(before);
    await served(content, out, env, pid);
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  it('[R-INC-2] a disk that refuses hard links: its file thread copies the unchanged pages, and the next build finds nothing changed', async () => {
    const { content, out } = fresh({ english: true });
    // As on a file system without hard links (exFAT, some network shares): EPERM for every link into a build's web root.
    const hook = path.join(tmpDir('resident-nolink-'), 'nolink.cjs');
    writeFileSync(
      hook,
      `const fs = require('fs'); const orig = fs.linkSync;
fs.linkSync = function (...a) {
  if (/[\\\\/]\\.dist\\.builds[\\\\/][^\\\\/]+[\\\\/]web[\\\\/]/.test(String(a[1]))) throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM', syscall: 'link' });
  return orig.apply(this, a);
};
require('module').syncBuiltinESMExports();
`,
    );
    const { env, pid } = await started(content, out, { NODE_OPTIONS: `--require ${hook}` });
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nCopied, not linked.\n');
    const post = await served(content, out, env, pid);
    expect(summary(post).rendered).toBeLessThan(summary(post).total);
    expect(await differencesFromCold(content, out)).toEqual([]);
    // The copies' own stamps are recorded, not those of the pages they were copied from.
    const again = await build(content, out, env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Nothing changed since the last build/);
  });

  it('[R-INC-2] Ctrl-C on its client stops the build it runs: the previous output is untouched, exit 130', async () => {
    const { content, out } = fresh({ english: true });
    // The second build that renders in one process pauses (once rendered, before publishing): in
    // the resident process, after it published a build of its own.
    const { env, pid } = await started(content, out, { SITE_TEST_PAUSE: 'rendered@2' });
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nPublished by the resident process.\n');
    const published = await build(content, out, env);
    expect(builtBy(published)).toBe(pid);
    const before = state(out);

    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nNever published.\n');
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'site.js'), 'build', '--content', content, '--out', out], { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, ...env } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await until('the resident build to pause', () => stderr.includes('paused at rendered'));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('stopped by SIGINT; the previous output is untouched');
    expect(state(out)).toEqual(before);
    // It stopped with the build; the next build runs in its own process, on the output as it was.
    await until('it to go', () => residents(env).length === 0);
    const next = await build(content, out, env);
    expect(next.code, next.stderr).toBe(0);
    expect(builtBy(next)).toBeUndefined();
    expect(await differencesFromCold(content, out)).toEqual([]);
  });

  /** A package beside `content`'s templates that counts its calls, shown by the footer; returns its entry file. */
  function footerPackage(content: string, esm: boolean): { write(version: string): void; footer: string } {
    const templates = ownTemplates(content);
    const pkg = path.join(path.dirname(content), 'node_modules', 'footer-note');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), esm ? '{"name":"footer-note","type":"module","exports":"./index.js"}' : '{"name":"footer-note","main":"index.js"}');
    const write = (version: string) =>
      writeFileSync(path.join(pkg, 'index.js'), esm ? `let n = 0; export const note = () => \`${version}-\${++n}\`;` : `let n = 0; module.exports = { note: () => \`${version}-\${++n}\` };`);
    write('v1');
    return { write, footer: path.join(templates, 'components', 'Footer.tsx') };
  }
  const useNote = (footer: string) =>
    writeFileSync(footer, `import { note } from 'footer-note';\n${readFileSync(footer, 'utf8').replace('<footer className="site-footer"', '<footer data-note={note()} className="site-footer"')}`);
  const noteOf = (out: string) => /data-note="([^"]*)"/.exec(readFileSync(path.join(out, 'index.html'), 'utf8'))?.[1];

  it('[R-INC-2] a package the templates require is loaded afresh by each of its builds, as by a build of its own', async () => {
    const { content, out } = fresh({ english: true });
    const { write, footer } = footerPackage(content, false);
    useNote(footer);
    const { env, pid } = await sharedResident(content, out);
    // As many calls as a build makes.
    const calls = /^v1-(\d+)$/.exec(noteOf(out) ?? '')?.[1];
    expect(calls).toBeDefined();
    for (const version of ['v1', 'v2']) {
      write(version);
      // (The template saved again: every page renders, and calls the package as a new build would.)
      writeFileSync(footer, `${readFileSync(footer, 'utf8')}\n`);
      const r = await build(content, out, env);
      expect(r.code, r.stderr).toBe(0);
      expect(builtBy(r), r.stderr).toBe(pid);
      expect(noteOf(out)).toBe(`${version}-${calls}`);
    }
  });

  it('[R-INC-2] an ES module package cannot be loaded again: the build that first loads it is served, then the process leaves and the builds run in their own', async () => {
    const { content, out } = fresh({ english: true });
    const { write, footer } = footerPackage(content, true);
    const { env, pid } = await started(content, out);
    useNote(footer);
    const first = await build(content, out, env);
    expect(first.code, first.stderr).toBe(0);
    expect(builtBy(first)).toBe(pid);
    const calls = /^v1-(\d+)$/.exec(noteOf(out) ?? '')?.[1];
    expect(calls).toBeDefined();
    await until('it to leave', () => residents(env).length === 0);
    write('v2');
    writeFileSync(footer, `${readFileSync(footer, 'utf8')}\n`);
    const next = await build(content, out, env);
    expect(next.code, next.stderr).toBe(0);
    expect(builtBy(next)).toBeUndefined();
    expect(noteOf(out)).toBe(`v2-${calls}`);
    // None started for a while: it would leave again.
    await new Promise((r) => setTimeout(r, 500));
    expect(residents(env)).toEqual([]);
  });

  it('[R-INC-2] templates that leave process listeners or timers behind: their builds run in processes of their own after the first', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    const pkg = path.join(path.dirname(content), 'node_modules', 'ticker');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), '{"name":"ticker","main":"index.js"}');
    writeFileSync(path.join(pkg, 'index.js'), 'setInterval(() => {}, 1e6).unref(); process.on("exit", () => {}); module.exports = { tick: "t" };');
    const footer = path.join(templates, 'components', 'Footer.tsx');
    writeFileSync(footer, `import { tick } from 'ticker';\n${readFileSync(footer, 'utf8').replace('<footer className="site-footer"', '<footer data-tick={tick} className="site-footer"')}`);
    const { env, pid } = await started(content, out);
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nOne.\n');
    expect(builtBy(await build(content, out, env))).toBe(pid);
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nTwo.\n');
    const r = await build(content, out, env);
    expect(r.code, r.stderr).toBe(0);
    expect(builtBy(r)).toBeUndefined();
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    await until('it to leave', () => residents(env).length === 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(residents(env)).toEqual([]);
  });

  it("[R-INC-2] a package of the generator's changed on disk: the next build runs in a process of its own", async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await started(content, out);
    // A build that renders: React is loaded in it.
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nEdited.\n');
    expect(builtBy(await build(content, out, env))).toBe(pid);
    // React's entry file, saved again (its time only: an update or a patch would change it).
    const react = path.join(ROOT, 'node_modules', 'react', 'index.js');
    const { atime, mtime } = statSync(react);
    utimesSync(react, atime, new Date());
    try {
      const r = await build(content, out, env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`${react} changed since the resident build process loaded it; building in this process`);
      expect(builtBy(r)).toBeUndefined();
    } finally {
      utimesSync(react, atime, mtime);
    }
    const next = await listening(env);
    expect(next).not.toBe(pid);
  });

  it('[R-INC-1] what a build prints comes through whole: characters split between two chunks are not broken', async () => {
    const { content, out } = fresh({ english: true });
    const templates = ownTemplates(content);
    const footer = path.join(templates, 'components', 'Footer.tsx');
    // A template that logs ~260 KB of two- and three-byte characters once per build.
    writeFileSync(footer, `${readFileSync(footer, 'utf8')}\nconsole.log('Ω' + 'κόσμε→'.repeat(20000));\n`);
    const { env, pid } = await sharedResident(content, out);
    writeFileSync(footer, `${readFileSync(footer, 'utf8')}\n`);
    const r = await build(content, out, env);
    expect(builtBy(r)).toBe(pid);
    const line = r.stdout.split('\n').find((l) => l.startsWith('Ω'));
    expect(line).toBe(`Ω${'κόσμε→'.repeat(20000)}`);
  });

  it('[R-INC-2] while it does not answer (stopped): Ctrl-C leaves after a few seconds, and a build runs in its own process', async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await started(content, out);
    const sock = findSocket(pid)!;
    process.kill(pid, 'SIGSTOP');
    const before = socketEnds(sock);
    try {
      // (It waits 1 s for an answer to the Ctrl-C here, 3 s by default.)
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'site.js'), 'build', '--content', content, '--out', out], { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, ...env, SITE_RESIDENT_ACCEPT_MS: '1000' } });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      // Once it has connected (the stopped process's queue holds one more end of its socket: a busy
      // machine can take more than a second to start Node), and has had a moment to send its build.
      await until('the build to connect', () => socketEnds(sock) > before);
      await new Promise((r) => setTimeout(r, 200));
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stderr).toContain('the resident build process does not answer; stopped waiting for it');
      // A build while it does not answer: built in its own process once it has not taken it (1 s here, 5 s by default).
      edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nBuilt while it was stopped.\n');
      const r = await build(content, out, { ...env, SITE_RESIDENT_ACCEPT_MS: '1000' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('the resident build process does not answer; building in this process');
      expect(builtBy(r)).toBeUndefined();
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  });

  it('[R-INC-2] a build date of its own (SOURCE_DATE_EPOCH) is served by the same process', async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await started(content, out);
    const later = String(Number(EPOCH) + 400 * 86_400);
    const r = await build(content, out, { ...env, SOURCE_DATE_EPOCH: later });
    expect(r.code, r.stderr).toBe(0);
    expect(builtBy(r)).toBe(pid);
    expect(r.stdout).toContain(`the build date changed`);
    // As a build of its own on that day (its copyright year, its scheduled posts).
    const cold = path.join(tmpDir('resident-date-'), 'dist');
    expect((await runCli(['build', '--quiet', '--content', content, '--out', cold], { ...env, SITE_RESIDENT: 'off', SOURCE_DATE_EPOCH: later })).code).toBe(0);
    // (The host files name their output folder: the pages and assets are compared.)
    const pages = (dir: string) => new Map([...state(dir)].filter(([f]) => !f.startsWith('.host/')));
    expect(pages(out)).toEqual(pages(cold));
  });

  it('[R-INC-2] another umask or environment starts another process, and the one before leaves', async () => {
    const { content, out } = fresh({ english: true });
    const { env, pid } = await started(content, out);
    // Another umask: not this process (it would publish with its own file modes); a new one replaces it.
    rmSync(out, { recursive: true });
    const args = [path.join(ROOT, 'bin', 'site.js'), 'build', '--quiet', '--content', content, '--out', out];
    const masked = spawnSync('sh', ['-c', 'umask 077; exec "$@"', 'sh', process.execPath, ...args], { cwd: ROOT, env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, ...env }, encoding: 'utf8' });
    expect(masked.status, masked.stderr).toBe(0);
    expect(statSync(path.join(out, 'index.html')).mode & 0o777).toBe(0o600);
    const next = await until('the process of that umask alone', () => residents(env).length === 1 && !residents(env).includes(pid) && residents(env)[0]);
    // Another variable: the same.
    expect((await build(content, out, { ...env, BUILD_ID: 'job-2' })).code).toBe(0);
    await until('one process left', () => residents(env).length === 1 && !residents(env).includes(next));
  });

  it('[R-INC-1] a record it could not write is said by the next build of that folder, as the build itself says it', async () => {
    const { content, out } = fresh({ english: true });
    const env = residentEnv({ SITE_TEST_FAIL: 'record' });
    const first = await build(content, out, env);
    expect(first.stdout).toContain('warning [record]');
    const pid = await listening(env);
    edit(content, 'blog/madrid-luxury-dining/en.md', /$/, '\n\nEdited.\n');
    const second = await build(content, out, env);
    expect(builtBy(second)).toBe(pid);
    const third = await build(content, out, env);
    expect(builtBy(third)).toBe(pid);
    expect(third.stderr).toContain(`site build: warning [record] the last build of ${path.relative(ROOT, out)}/: the build is published, but its record could not be written`);
    // Not with --quiet, as a build's own warnings.
    const quiet = await runCli(['build', '--quiet', '--content', content, '--out', out], env);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});

/** The ends of Unix socket `sock` the kernel holds: the listener's, and one for each connection (taken or queued). */
const socketEnds = (sock: string) => readFileSync('/proc/net/unix', 'utf8').split('\n').filter((l) => l.trim().split(/\s+/)[7] === sock).length;

/** The Unix socket process `pid` listens on (its path, from /proc/net/unix by the socket's inode). */
function findSocket(pid: number): string | undefined {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 8 && inodes.has(cols[6]!) && cols[7]!.endsWith('.sock')) return cols[7];
  }
  return undefined;
}
