/**
 * nginx with the config the build generates (`--host nginx` → `<out>.host/nginx.conf`), on Debian's
 * nginx: a content copy with a fifth language is built with the real CLI, nginx serves it on
 * 127.0.0.1 and must answer the shared host probes. Skipped when nginx is not installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { parse } from 'yaml';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/site.ts';

const readYaml = <T,>(dir: string, f: string) => parse(readFileSync(path.join(dir, f), 'utf8')) as T;
import { freePort, hostBuild, hostProbes, localized, type HostBuild } from '../helpers/hosts.ts';

const NGINX = '/usr/sbin/nginx';
const DEBIAN_DEFAULT = '/etc/nginx/sites-available/default';
const hasNginx = existsSync(NGINX);
if (!hasNginx) console.warn('nginx not found at /usr/sbin/nginx: install it with `apt-get install -y nginx`; nginx tests skipped.');

let build: HostBuild;
let base: string;
let nginx: ChildProcess | undefined;
let errorLog: string;
let generated: string;
let besidePort: number;

const get = (p: string) => fetch(`${base}${p}`, { redirect: 'manual' });

/** A GET with a Host header of its own (fetch cannot set one). */
function request(port: number, host: string, p: string): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, headers: { host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
      })
      .on('error', reject);
  });
}

describe.skipIf(!hasNginx)('generated nginx.conf with Debian nginx', () => {
  beforeAll(async () => {
    build = await hostBuild('nginx');
    const tmp = tmpDir('site-nginx-');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    errorLog = path.join(tmp, 'error.log');

    generated = readFileSync(path.join(build.hostDir, 'nginx.conf'), 'utf8');
    // A second port as a Debian server has it: the package's own `default` site (when installed)
    // with `default_server`, beside the generated block.
    besidePort = await freePort();
    const server = generated.replace(/^\s*listen\s[^;]*;\s*$/gm, '').replace(/server\s*\{/, `server {\n    listen 127.0.0.1:${port};\n    listen 127.0.0.1:${besidePort};`);
    writeFileSync(path.join(tmp, 'site.conf'), server);
    const debianDefault = existsSync(DEBIAN_DEFAULT) ? readFileSync(DEBIAN_DEFAULT, 'utf8') : 'server {\n  listen 80 default_server;\n  server_name _;\n  return 200 "Welcome to nginx!";\n}\n';
    writeFileSync(path.join(tmp, 'default.conf'), debianDefault.replace(/^\s*listen\s[^;]*;\s*$/gm, '').replace(/server\s*\{/, `server {\n    listen 127.0.0.1:${besidePort} default_server;`));
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
        `  include ${temp('default.conf')};`,
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

  it("[R-HOST-2] nginx: beside Debian's default site, the site's domain gets the site (the block is named after baseUrl's host) and other names get the default", async () => {
    const domain = new URL(readYaml<{ baseUrl: string }>(build.content, 'site.yaml').baseUrl).hostname;
    expect(generated).toMatch(new RegExp(`^\\s*server_name ${domain.replace(/\./g, '\\.')};$`, 'm'));
    const page = await request(besidePort, domain, build.page);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<html lang="/);
    const [from, to] = build.redirects[0]!;
    const moved = await request(besidePort, domain, from);
    expect([moved.status, moved.location]).toEqual([301, to]);
    // The server's address (no domain yet) is the default site's: the block does not take it over.
    expect((await request(besidePort, '127.0.0.1', build.page)).body).not.toMatch(/<html lang="/);
  });

  hostProbes('nginx', () => base, () => build);
});
