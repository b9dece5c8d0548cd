/** Atomic publish: killed at any point, a build leaves a complete old or new output. */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyContent, edit, EPOCH, listFiles, read, ROOT, runCli, tmpDir } from '../helpers/site.ts';

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
    content = copyContent();
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
    const r = await runCli(['build', '--content', content, '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expectComplete();
    expect(read(out, 'index.html')).toContain(NEW);
    expect(readdirSync(path.join(parent, '.dist.builds')).sort()).toHaveLength(2); // the live build and the marker
    expect(readdirSync(parent).sort()).toEqual(['.dist.builds', 'dist', 'dist.host']);
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
    expect(readdirSync(path.join(path.dirname(legacy), '.dist.builds'))).toHaveLength(2);
    rmSync(path.dirname(legacy), { recursive: true, force: true });
  });

  it('the incremental carry works through the published link', async () => {
    const r = await runCli(['build', '--content', content, '--out', out]);
    expect(r.stdout).toMatch(/^Nothing changed since the last build/);
    expectComplete();
    expect(existsSync(path.join(out, 'index.html'))).toBe(true);
  });
});
