/** Atomic publish: killed at any point, a build leaves a complete old or new output. */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyStarter, edit, EPOCH, listFiles, read, ROOT, runCli, runMain, tmpDir } from '../helpers/site.ts';
import { shippedOut } from '../helpers/shared.ts';
import { HOST_FILES } from '../../src/output/host-folder.ts';
import { hostFiles } from '../../src/output/hosts/index.ts';
import { HOSTS } from '../../src/output/hosts/names.ts';
import type { HostRules } from '../../src/output/hosts/rules.ts';
import { DiskWriter } from '../../src/output/writer.ts';
import { lockFile } from '../../src/output/lock.ts';
import { resolveConfig } from '../../src/config.ts';

interface Paused {
  /** True once the build said it reached the pause point. */
  paused: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** The build's process id (its staging folder is named after it). */
  pid: number;
}

/** Run a build that pauses at `point`, then send `signal` to it; resolve when it has ended. */
function buildKilledAt(content: string, out: string, point: string, signal: NodeJS.Signals): Promise<Paused> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'site.js'), 'build', '--content', content, '--out', out, '-q'], {
      cwd: ROOT,
      env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH, SITE_TEST_PAUSE: point },
    });
    const result: Paused = { paused: false, code: null, signal: null, stderr: '', pid: child.pid! };
    child.stderr.on('data', (chunk: Buffer) => {
      result.stderr += chunk.toString();
      if (!result.paused && result.stderr.includes(`paused at ${point}`)) {
        result.paused = true;
        child.kill(signal);
      }
    });
    child.on('exit', (code, sig) => resolve({ ...result, code, signal: sig }));
  });
}

describe('[R-SAFE-2][R-BUILD-3] atomic publish', () => {
  let content: string;
  let out: string;
  let files: string[];
  const OLD = 'Published before the kill';
  const NEW = 'Published by the killed build';

  beforeAll(async () => {
    content = copyStarter();
    out = path.join(tmpDir(), 'dist');
    edit(content, 'site.yaml', /^(brand: ).*$/m, `$1"${OLD}"`);
    const first = await runCli(['build', '--content', content, '--out', out, '-q']);
    expect(first.code, first.stderr).toBe(0);
    files = listFiles(out);
    edit(content, 'site.yaml', `"${OLD}"`, `"${NEW}"`);
  });

  /** The output is one whole build: the same files as a full build, and a home page of one of them. */
  function expectComplete(): void {
    expect(listFiles(out)).toEqual(files);
    const home = read(out, 'index.html');
    expect(home.includes(OLD) || home.includes(NEW)).toBe(true);
  }

  it.each(['loaded', 'rendered', 'before-swap', 'swap-linked', 'swap-renamed'])('SIGKILL at "%s" leaves a complete output', async (point) => {
    const r = await buildKilledAt(content, out, point, 'SIGKILL');
    expect(r.paused, r.stderr).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expectComplete();
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s while rendering removes the unfinished build and keeps the output', async (signal, code) => {
    const before = read(out, 'index.html');
    const r = await buildKilledAt(content, out, 'rendered', signal);
    expect(r.paused, r.stderr).toBe(true);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain('the previous output is untouched');
    expectComplete();
    expect(read(out, 'index.html')).toBe(before);
    // The interrupted build's own folder (named after its process) is gone.
    const builds = readdirSync(path.join(path.dirname(out), '.dist.builds'));
    expect(builds.filter((n) => n.endsWith(`-${r.pid}`))).toEqual([]);
  });

  it('the next build removes every leftover of killed builds (and of the earlier tool), never <out>.host', async () => {
    const parent = path.dirname(out);
    // The earlier tool's leftovers, from a process that no longer runs.
    mkdirSync(path.join(parent, 'dist.staging-99999999-1'), { recursive: true });
    mkdirSync(path.join(parent, 'dist.old-99999999-1'), { recursive: true });
    // A host-folder swap cut off by a kill.
    mkdirSync(path.join(parent, 'dist.host.tmp-99999999-1'), { recursive: true });
    mkdirSync(path.join(parent, 'dist.host.old-99999999-1'), { recursive: true });
    mkdirSync(path.join(parent, 'dist.host'), { recursive: true }); // the host files' folder (written by the hosts stage)
    // Named like a leftover but holding someone's own file: kept.
    mkdirSync(path.join(parent, 'dist.old-99999999-2'));
    writeFileSync(path.join(parent, 'dist.old-99999999-2', 'notes.txt'), 'mine');
    const r = await runCli(['build', '--content', content, '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expectComplete();
    expect(read(out, 'index.html')).toContain(NEW);
    expect(readdirSync(path.join(parent, '.dist.builds')).sort()).toHaveLength(3); // the live build, the live link and the marker
    expect(readdirSync(parent).sort()).toEqual(['.dist.builds', 'dist', 'dist.host', 'dist.old-99999999-2']);
    expect(readFileSync(path.join(parent, 'dist.old-99999999-2', 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('SIGKILL while an earlier tool\'s real folder is moved aside: the next build publishes a complete output', async () => {
    const legacy = path.join(tmpDir(), 'dist');
    cpSync(out, legacy, { recursive: true, dereference: true });
    const r = await buildKilledAt(content, legacy, 'swap-legacy-moved', 'SIGKILL');
    expect(r.paused, r.stderr).toBe(true);
    // One rename later the new build would be live; killed exactly between, the next build restores one.
    const next = await runCli(['build', '--content', content, '--out', legacy, '-q']);
    expect(next.code, next.stderr).toBe(0);
    expect(listFiles(legacy)).toEqual(files);
    expect(readdirSync(path.join(path.dirname(legacy), '.dist.builds'))).toHaveLength(3);
    rmSync(path.dirname(legacy), { recursive: true, force: true });
  });

  it('the incremental carry works through the published link', async () => {
    const r = await runCli(['build', '--content', content, '--out', out]);
    expect(r.stdout.slice(0, 400)).toMatch(/^Nothing changed since the last build/);
    expectComplete();
    expect(existsSync(path.join(out, 'index.html'))).toBe(true);
  });
});

describe('[R-SAFE-2] builds of one process in a row', () => {
  it('the next build writes while the build it follows still removes what it replaced: the sweep leaves the unpublished build alone', async () => {
    const out = path.join(tmpDir(), 'dist');
    const publish = async (n: number) => {
      const writer = new DiskWriter(out);
      await writer.write('index.html', `<!doctype html><p>build ${n}</p>`);
      await writer.commit();
      return writer;
    };
    await publish(0);
    const first = await publish(1); // its removal of build 0, then the leftovers' sweep, go on
    const next = new DiskWriter(out);
    await next.write('index.html', '<!doctype html><p>build 2</p>');
    await first.settled(); // the sweep ran while `next` was unpublished
    await next.commit();
    await next.settled();
    expect(read(out, 'index.html')).toContain('build 2');
    expect(readdirSync(path.join(path.dirname(out), '.dist.builds')).sort()).toHaveLength(3); // the live build, its link, the marker
  });
});

/**
 * R-SAFE-12: a kill or failure at any moment of publishing leaves pages and host rules of one build,
 * the next build notices an interrupted publish, and `<out>.host` is treated like `--out`.
 */
describe('[R-SAFE-12] publishing pages and host rules together', () => {
  const REDIRECTS = 'data/redirects.yaml';
  /** A fixed modification time (whole seconds: the input key counts it to the nanosecond). */
  const MTIME = 1_700_000_000;
  let content: string;
  let original: string;

  /** The first redirect's target as the host rules say it, and whether the pages agree (one build). */
  function inPlace(out: string): { ruled: string; agree: boolean } {
    const rules = JSON.parse(readFileSync(path.join(`${out}.host`, 'rules.json'), 'utf8')) as { redirects: { from: string; to: string }[] };
    const first = /from: (\/[^,\s]+)/.exec(original)![1]!;
    const ruled = rules.redirects.find((r) => r.from === first)!.to;
    return { ruled, agree: read(out, `${first.slice(1)}.html`).includes(`${ruled}"`) };
  }

  /** Change the first redirect's target: the pages (its stub) and the host rules both change. */
  function changeRedirect(): void {
    edit(content, REDIRECTS, /^(- \{ from: \/[^,]+, to: )\/[^ }]*/m, '$1/journal');
  }

  /** The content exactly as before (bytes and modification time): the input key of the first build. */
  function restoreRedirect(): void {
    writeFileSync(path.join(content, REDIRECTS), original);
    utimesSync(path.join(content, REDIRECTS), MTIME, MTIME);
  }

  async function firstBuild(): Promise<string> {
    const out = path.join(tmpDir(), 'dist');
    restoreRedirect();
    const r = await runCli(['build', '--content', content, '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    return out;
  }

  beforeAll(() => {
    content = copyStarter();
    original = readFileSync(path.join(content, REDIRECTS), 'utf8');
  });

  it('SIGKILL right after the output is re-linked: pages and host rules of one build, and the next build renders again (R-SAFE-12)', async () => {
    const out = await firstBuild();
    const before = inPlace(out);
    changeRedirect();
    const r = await buildKilledAt(content, out, 'swap-renamed', 'SIGKILL');
    expect(r.paused, r.stderr).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    // What is in place is the killed build, whole: its stub pages and its host rules.
    const killed = inPlace(out);
    expect(killed.agree, `rules say ${killed.ruled}`).toBe(true);
    expect(killed.ruled).toBe('/journal');
    // The inputs of the recorded build again: the killed build is live, not the recorded one.
    restoreRedirect();
    const next = await runCli(['build', '--content', content, '--out', out]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).not.toMatch(/Nothing changed/);
    expect(inPlace(out)).toEqual(before);
  });

  it('Ctrl-C once the new build is published says that it is in place, not that the previous output is untouched (R-SAFE-12)', async () => {
    const out = await firstBuild();
    changeRedirect();
    const r = await buildKilledAt(content, out, 'published', 'SIGINT');
    expect(r.paused, r.stderr).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stderr).not.toContain('untouched');
    expect(r.stderr).toMatch(/after publishing: .*dist shows the new build/);
    expect(inPlace(out)).toEqual({ ruled: '/journal', agree: true });
  });

  it('a build record that cannot be written after publishing leaves the new build live and the next build renders again (R-SAFE-12)', async () => {
    const out = await firstBuild();
    changeRedirect();
    const r = await runCli(['build', '--content', content, '--out', out], { SITE_TEST_FAIL: 'record' });
    expect(existsSync(path.join(out, 'index.html')), 'dist must not dangle').toBe(true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/warning \[record\].*the build is published, but its record could not be written/);
    expect(inPlace(out)).toEqual({ ruled: '/journal', agree: true });
    const next = await runCli(['build', '--content', content, '--out', out]);
    expect(next.stdout).toMatch(/^Built /);
  });

  it('a failure after publishing never leaves the output a dangling link, and says what is in place (R-SAFE-12)', async () => {
    const out = await firstBuild();
    changeRedirect();
    const r = await runCli(['build', '--content', content, '--out', out], { SITE_TEST_FAIL: 'published' });
    expect(existsSync(path.join(out, 'index.html')), 'dist must not dangle').toBe(true);
    expect(inPlace(out)).toEqual({ ruled: '/journal', agree: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the new build was published to .*dist \(complete, with its host files\) before this failure/);
  });

  it('a second build of one folder waits for the first (it failed on the pages the first was replacing), then builds on what that one published; a killed build\'s lock is taken over', async () => {
    const out = await firstBuild();
    // The lock of the folder's real place: here through a link to its parent, another spelling of one folder.
    const linked = path.join(tmpDir(), 'parent');
    symlinkSync(path.dirname(out), linked);
    const lock = lockFile(resolveConfig({ content, out }).cacheDir, path.join(linked, path.basename(out)));
    // A build holding the folder: a live process named in the lock.
    const holder = spawn('sleep', ['30']);
    // As a build writes it: its pid, and its start where the system tells (/proc).
    const start = existsSync(`/proc/${holder.pid}/stat`) ? readFileSync(`/proc/${holder.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19] : '';
    writeFileSync(lock, `${holder.pid} ${start}`.trim());
    const building = runMain(['build', '--content', content, '--out', out]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(readFileSync(lock, 'utf8').split(' ')[0], 'the second build waits').toBe(String(holder.pid));
    // That build is killed (SIGKILL: its lock stays behind): the waiting one takes it over.
    holder.kill('SIGKILL');
    const r = await building;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`another build of ${out} is running (process ${holder.pid}): waiting for it to finish`);
    expect(existsSync(lock), 'let go once done').toBe(false);
    expect(inPlace(out).agree).toBe(true);
  });

  it('builds again after the builds folder was deleted by hand: its own links, left pointing at nothing, are taken back (R-SAFE-12)', async () => {
    const out = await firstBuild();
    const builds = path.join(path.dirname(out), '.dist.builds');
    for (const gone of [[builds], [builds, out]]) {
      for (const p of gone) rmSync(p, { recursive: true, force: true });
      const r = await runMain(['build', '--content', content, '--out', out, '-q']);
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(path.join(out, 'index.html'))).toBe(true);
      expect(inPlace(out).agree).toBe(true);
    }
    // A folder of someone else's in its place (no marker): the links into it are not taken, nothing is written there.
    rmSync(builds, { recursive: true, force: true });
    mkdirSync(path.join(builds, 'old'), { recursive: true });
    writeFileSync(path.join(builds, 'notes.txt'), 'mine\n');
    const r = await runMain(['build', '--content', content, '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(readdirSync(builds).sort()).toEqual(['notes.txt', 'old']);
  });

  it('refuses a <out>.host holding files the build did not write, like a foreign --out: exit 2, files intact (R-SAFE-12)', async () => {
    const parent = tmpDir();
    const out = path.join(parent, 'dist');
    mkdirSync(`${out}.host`);
    writeFileSync(path.join(`${out}.host`, 'nginx.conf'), '# my own server block\n');
    writeFileSync(path.join(`${out}.host`, 'notes.txt'), 'keep me\n');
    const r = await runCli(['build', '--content', content, '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/dist\.host holds 1 file\(s\) or folder\(s\) that this tool did not write \(notes\.txt\)\. Nothing was changed/);
    expect(readdirSync(parent).sort()).toEqual(['dist.host']);
    expect(readFileSync(path.join(`${out}.host`, 'notes.txt'), 'utf8')).toBe('keep me\n');
    expect(readFileSync(path.join(`${out}.host`, 'nginx.conf'), 'utf8')).toBe('# my own server block\n');
  });

  it('moves an output of the earlier layout over (real <out>.host); killed in the middle, the next build puts it right (R-SAFE-12)', async () => {
    const out = await firstBuild();
    const expected = inPlace(out);
    // The earlier layout: `dist` links straight to a build folder, `dist.host` is a real folder.
    const builds = path.join(path.dirname(out), '.dist.builds');
    const earlier = path.join(builds, 'earlier-99999999');
    cpSync(out, earlier, { recursive: true, dereference: true });
    const host = `${out}.host`;
    const hostCopy = path.join(tmpDir(), 'host');
    cpSync(host, hostCopy, { recursive: true, dereference: true });
    rmSync(host);
    cpSync(hostCopy, host, { recursive: true });
    rmSync(out);
    symlinkSync(path.relative(path.dirname(out), earlier), out);
    rmSync(path.join(builds, 'live'));
    const r = await buildKilledAt(content, out, 'swap-host-aside', 'SIGKILL');
    expect(r.paused, r.stderr).toBe(true);
    // Killed between moving the old host folder aside and linking the output: no host rules of
    // another build are in place (none are, for a moment), and the pages are still the old ones.
    expect(existsSync(host)).toBe(false);
    expect(read(out, 'index.html')).toBeTruthy();
    const next = await runCli(['build', '--content', content, '--out', out, '-q']);
    expect(next.code, next.stderr).toBe(0);
    expect(lstatSync(host).isSymbolicLink()).toBe(true);
    expect(inPlace(out)).toEqual(expected);
    expect(readdirSync(builds).sort()).toHaveLength(3); // the live build, the live link, the marker
  });
});

describe('[R-SAFE-12] the host files a <out>.host may hold', () => {
  it('HOST_FILES names every file any host target writes beside the web root (else a folder of the earlier version would be refused)', () => {
    const rules = JSON.parse(readFileSync(path.join(`${shippedOut()}.host`, 'rules.json'), 'utf8')) as HostRules;
    const beside = new Set(HOSTS.flatMap((name) => hostFiles(name, rules, '/srv/site/dist').beside.map((f) => f.file)));
    expect([...beside].filter((f) => !(HOST_FILES as readonly string[]).includes(f))).toEqual([]);
  });
});
