/**
 * Cloudflare Pages on its own engine: `wrangler pages dev` (workerd plus Cloudflare's Pages asset
 * server, offline) serves a `--host cloudflare` build. Skipped when wrangler is not installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tmpDir } from '../helpers/site.ts';
import { freePort, hostBuild, hostProbes, waitForHttp, type HostBuild } from '../helpers/hosts.ts';

const WRANGLER = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const hasWrangler = existsSync(WRANGLER);
if (!hasWrangler) console.warn('wrangler not installed (npm ci installs it as a devDependency): Cloudflare engine tests skipped.');

let build: HostBuild;
let base = '';
let child: ChildProcess | undefined;
let log = '';

describe.skipIf(!hasWrangler)('Cloudflare Pages (wrangler pages dev) serving --host cloudflare', () => {
  beforeAll(async () => {
    build = await hostBuild('cloudflare');
    const port = await freePort();
    const home = tmpDir('site-wrangler-');
    // Offline: no metrics, no update check; the compatibility date is one this workerd supports.
    child = spawn(process.execPath, [WRANGLER, 'pages', 'dev', build.out, '--compatibility-date=2026-05-01', '--port', String(port), '--ip', '127.0.0.1'], {
      cwd: home,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', XDG_CONFIG_HOME: home, WRANGLER_LOG_PATH: path.join(home, 'logs'), NO_COLOR: '1' },
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

  hostProbes('cloudflare', () => base, () => build);
});
