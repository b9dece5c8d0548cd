/**
 * The shipped nginx config (deploy/nginx.conf) with Debian's nginx: the shipped content is built
 * with the real CLI, nginx serves it on 127.0.0.1 and must apply the same redirects, 404 pages and
 * headers as dist/_redirects and dist/_headers. Skipped when nginx is not installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, copyContent, read, ROOT, tmpDir } from '../helpers/site.ts';

const NGINX = '/usr/sbin/nginx';
const hasNginx = existsSync(NGINX);
if (!hasNginx) console.warn('nginx not found at /usr/sbin/nginx: install it with `apt-get install -y nginx`; nginx tests skipped.');

const PLACEHOLDER = '/srv/site/dist';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** The `/*` headers of dist/_headers, name → value. */
function siteWideHeaders(headersFile: string): Map<string, string> {
  const block = headersFile.split(/\n\s*\n/).find((b) => b.trimStart().startsWith('/*\n'))!;
  const out = new Map<string, string>();
  for (const line of block.split('\n').slice(1)) {
    const m = /^\s+([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

let out: string;
let base: string;
let nginx: ChildProcess | undefined;
let errorLog: string;

const get = (p: string) => fetch(`${base}${p}`, { redirect: 'manual' });

describe.skipIf(!hasNginx)('deploy/nginx.conf with Debian nginx', () => {
  beforeAll(async () => {
    ({ out } = await buildSite(copyContent()));
    const tmp = tmpDir('site-nginx-');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    errorLog = path.join(tmp, 'error.log');

    const shipped = readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8');
    expect(shipped).toContain(PLACEHOLDER);
    const server = shipped
      .replaceAll(PLACEHOLDER, out)
      .replace(/^\s*listen\s[^;]*;\s*$/gm, '')
      .replace(/server\s*\{/, `server {\n    listen 127.0.0.1:${port};`);
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
  });

  afterAll(async () => {
    const child = nginx;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  });

  it('the shipped config loads without warnings', () => {
    expect(readFileSync(errorLog, 'utf8')).not.toMatch(/\[(warn|error|crit|alert|emerg)\]/);
  });

  it('[R-BUILD-6] clean URLs: /rates and /es/rates are the pages', async () => {
    const en = await get('/rates');
    expect(en.status).toBe(200);
    expect(en.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await en.text()).toContain('<html lang="en"');
    const es = await get('/es/rates');
    expect(es.status).toBe(200);
    expect(await es.text()).toContain('<html lang="es"');
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toBe(read(out, 'index.html'));
    expect((await get('/rates/')).headers.get('location')).toBe('/rates');
  });

  it('[R-BUILD-6] redirects: 301 with the query string kept, in every language', async () => {
    const r = await get('/madrid-escort?x=1');
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/madrid-vip-escort?x=1');
    const es = await get('/es/monaco-escort');
    expect(es.status).toBe(301);
    expect(es.headers.get('location')).toBe('/es/monaco-elite-companion');
  });

  it('[R-BUILD-6] every 301 rule of _redirects is applied by nginx', async () => {
    const rules = read(out, '_redirects')
      .split('\n')
      .filter((l) => / 301!$/.test(l))
      .map((l) => l.split(' '));
    expect(rules.length).toBeGreaterThan(10);
    for (const [from, to] of rules) {
      const r = await get(from!);
      expect(r.status, from).toBe(301);
      expect(r.headers.get('location'), from).toBe(to);
    }
  });

  it('[R-BUILD-6] unknown paths get the 404 page of their language', async () => {
    const es = await get('/es/nope');
    expect(es.status).toBe(404);
    const esBody = await es.text();
    expect(esBody).toContain('<html lang="es"');
    expect(esBody).toBe(read(out, 'es/404.html'));
    const en = await get('/nope');
    expect(en.status).toBe(404);
    expect(await en.text()).toContain('<html lang="en"');
    for (const lang of ['ru', 'el']) {
      const r = await get(`/${lang}/nope`);
      expect(r.status).toBe(404);
      expect(await r.text()).toContain(`<html lang="${lang}"`);
    }
  });

  it('[R-BUILD-10] hashed assets are immutable for a year; pages, sw.js and sitemap.xml revalidate', async () => {
    const css = readdirSync(path.join(out, 'assets')).find((f) => /^noscript\.[0-9a-f]+\.css$/.test(f))!;
    expect(css).toBeTruthy();
    const asset = await get(`/assets/${css}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/css/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const p of ['/rates', '/sw.js', '/sitemap.xml']) {
      const r = await get(p);
      expect(r.status, p).toBe(200);
      expect(r.headers.get('cache-control'), p).toBe('no-cache');
    }
    expect((await get('/sw.js')).headers.get('service-worker-allowed')).toBe('/');
    expect((await get('/manifest.webmanifest')).headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  });

  it('[R-BUILD-10] security headers: the same values as dist/_headers on pages, assets and 404s', async () => {
    const expected = siteWideHeaders(read(out, '_headers'));
    for (const name of ['Content-Security-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy']) expect(expected.has(name), name).toBe(true);
    const css = readdirSync(path.join(out, 'assets')).find((f) => f.endsWith('.css'))!;
    for (const p of ['/rates', '/es', `/assets/${css}`, '/sw.js', '/es/nope']) {
      const r = await get(p);
      for (const [name, value] of expected) {
        if (name === 'Cache-Control') continue;
        expect(r.headers.get(name), `${p} ${name}`).toBe(value);
      }
    }
  });

  it('[R-BUILD-10] host configuration files are not served', async () => {
    for (const p of ['/_headers', '/_redirects', '/_nginx/headers.conf', '/_nginx/redirects.conf']) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(await r.text(), p).not.toContain('add_header');
    }
  });
});
