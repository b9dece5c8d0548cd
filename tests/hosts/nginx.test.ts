/**
 * nginx with the config the build generates (`--host nginx` → `<out>.host/nginx.conf`), on Debian's
 * nginx: a content copy with a fifth language is built with the real CLI, nginx serves it on
 * 127.0.0.1 and must answer the shared host probes. Skipped when nginx is not installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/site.ts';
import { freePort, hostBuild, hostProbes, localized, type HostBuild } from '../helpers/hosts.ts';

const NGINX = '/usr/sbin/nginx';
const hasNginx = existsSync(NGINX);
if (!hasNginx) console.warn('nginx not found at /usr/sbin/nginx: install it with `apt-get install -y nginx`; nginx tests skipped.');

let build: HostBuild;
let base: string;
let nginx: ChildProcess | undefined;
let errorLog: string;
let generated: string;

const get = (p: string) => fetch(`${base}${p}`, { redirect: 'manual' });

describe.skipIf(!hasNginx)('generated nginx.conf with Debian nginx', () => {
  beforeAll(async () => {
    build = await hostBuild('nginx');
    const tmp = tmpDir('site-nginx-');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    errorLog = path.join(tmp, 'error.log');

    generated = readFileSync(path.join(build.hostDir, 'nginx.conf'), 'utf8');
    const server = generated.replace(/^\s*listen\s[^;]*;\s*$/gm, '').replace(/server\s*\{/, `server {\n    listen 127.0.0.1:${port};`);
    writeFileSync(path.join(tmp, 'site.conf'), server);
    const temp = (name: string) => path.join(tmp, name);
    writeFileSync(
      path.join(tmp, 'nginx.conf'),
      [
        // As root, workers would switch to an unprivileged user that cannot read the temp folders.
        process.getuid?.() === 0 ? 'user root;' : '',
        'worker_processes 1;',
        `error_log ${errorLog} warn;`,
        'events { worker_connections 64; }',
        'http {',
        '  include /etc/nginx/mime.types;',
        '  default_type application/octet-stream;',
        `  access_log ${temp('access.log')};`,
        `  client_body_temp_path ${temp('client_body')};`,
        `  proxy_temp_path ${temp('proxy')};`,
        `  fastcgi_temp_path ${temp('fastcgi')};`,
        `  uwsgi_temp_path ${temp('uwsgi')};`,
        `  scgi_temp_path ${temp('scgi')};`,
        `  include ${temp('site.conf')};`,
        '}',
        '',
      ].join('\n'),
    );

    const child = spawn(NGINX, ['-p', tmp, '-e', errorLog, '-c', temp('nginx.conf'), '-g', `daemon off; pid ${temp('nginx.pid')};`], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx = child;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    let exited: number | null | undefined;
    child.on('exit', (code) => (exited = code));
    const log = () => `${stderr}\n${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`;
    for (const started = Date.now(); ; ) {
      if (exited !== undefined) throw new Error(`nginx exited with ${exited}:\n${log()}`);
      try {
        if ((await fetch(`${base}/robots.txt`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() - started > 10_000) throw new Error(`nginx did not start within 10 s:\n${log()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 240_000);

  afterAll(async () => {
    const child = nginx;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  });

  it('the generated config loads without warnings and names every language', () => {
    expect(readFileSync(errorLog, 'utf8')).not.toMatch(/\[(warn|error|crit|alert|emerg)\]/);
    for (const lang of build.languages) if (lang !== build.defaultLanguage) expect(generated).toContain(`location ^~ /${lang}/ {`);
  });

  it('[R-HOST-2] nginx: the service worker may control the site; the manifest has its content type; 301s keep the headers', async () => {
    expect((await get('/sw.js')).headers.get('service-worker-allowed')).toBe('/');
    expect((await get('/manifest.webmanifest')).headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const [from] = build.redirects[0]!;
    expect((await get(from)).headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await get(localized('/nope', build.languages.at(-1)!, build.defaultLanguage))).headers.get('cache-control')).toBe('no-cache');
  });

  hostProbes('nginx', () => base, () => build);
});
