/**
 * Cloudflare Pages on its own engine: `wrangler pages dev` (workerd plus Cloudflare's Pages asset
 * server, offline) serves a `--host cloudflare` build, configured as the deploy guide sets a
 * project up: the build's `dist.host/wrangler.toml` copied into the site's folder, which names
 * the output folder and the compatibility date. Skipped when wrangler is not installed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, ROOT, tmpDir } from '../helpers/site.ts';
import { freePort, hostBuild, hostProbes, waitForHttp, type HostBuild } from '../helpers/hosts.ts';

const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const hasWrangler = existsSync(WRANGLER);
if (!hasWrangler) console.warn('wrangler not installed (npm ci installs it as a devDependency): Cloudflare engine tests skipped.');

let build: HostBuild;
let base = '';
let child: ChildProcess | undefined;
let log = '';
/** The site's folder (the content's parent), holding the generated wrangler.toml as the guide says. */
let siteDir = '';
let home = '';
/** No metrics; wrangler's own files (login, logs) in a temporary home. */
const wranglerEnv = () => ({ ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', XDG_CONFIG_HOME: home, WRANGLER_LOG_PATH: path.join(home, 'logs'), NO_COLOR: '1' });

describe.skipIf(!hasWrangler)('Cloudflare Pages (wrangler pages dev) serving --host cloudflare', () => {
  beforeAll(async () => {
    build = await hostBuild('cloudflare');
    const port = await freePort();
    home = tmpDir('site-wrangler-');
    siteDir = path.dirname(build.content);
    copyFileSync(path.join(build.hostDir, 'wrangler.toml'), path.join(siteDir, 'wrangler.toml'));
    // No folder and no compatibility date on the command line: both come from wrangler.toml.
    child = spawn(process.execPath, [WRANGLER, 'pages', 'dev', '--port', String(port), '--ip', '127.0.0.1'], {
      cwd: siteDir,
      env: wranglerEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/robots.txt`, 60_000, () => log);
  }, 240_000);

  afterAll(async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  });

  it('[R-HOST-1] wrangler accepts every _redirects rule and the _headers file', () => {
    const rules = readFileSync(path.join(build.out, '_redirects'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(log).toContain(`Parsed ${rules.length} valid redirect rules`);
    expect(log).not.toMatch(/invalid redirect rule|invalid header rule/i);
  });

  it("[R-OPS-11][R-HOST-1] wrangler.toml is written beside the output, never into it, and wrangler takes it: pages dev serves its output folder with its compatibility date, and the check Pages' own builds run on it (pages functions build-env) passes", () => {
    expect(existsSync(path.join(build.hostDir, 'wrangler.toml'))).toBe(true);
    expect(listFiles(build.out)).not.toContain('wrangler.toml');
    // wrangler warns of a field it does not know, or of a missing compatibility date.
    expect(log).not.toMatch(/WARNING|compatibility_date/);
    const outfile = path.join(tmpDir('site-build-env-'), 'build-env.json');
    const r = spawnSync(process.execPath, [WRANGLER, 'pages', 'functions', 'build-env', siteDir, '--outfile', outfile], { cwd: siteDir, env: wranglerEnv(), encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/WARNING|ERROR/);
    const env = JSON.parse(readFileSync(outfile, 'utf8')) as { pages_build_output_dir: string; vars: Record<string, string> };
    expect(path.resolve(siteDir, env.pages_build_output_dir)).toBe(build.out);
    // The build's Node.js version, a major within package.json's engines.
    const engines = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(env.vars.NODE_VERSION).toMatch(/^\d+$/);
    expect(Number(env.vars.NODE_VERSION)).toBeGreaterThan(Number(/^>=\s*(\d+)/.exec(engines)![1]));
  });

  hostProbes('cloudflare', () => base, () => build);
});
