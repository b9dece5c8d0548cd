/** The local servers: no symlink out of the served folder, no foreign Host, compression as hosts do. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer } from '../../src/server/dev.ts';
import { startStaticServer } from '../../src/server/static.ts';
import { serveCli, tmpDir } from '../helpers/site.ts';
import { DiskWriter } from '../../src/output/writer.ts';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET with exact headers (fetch would decompress and never send a chosen Host). */
function get(base: string, urlPath: string, headers: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(urlPath, base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: { Host: url.host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A served folder with a page, a large stylesheet, an image, and symlinks in and out of it. */
function site(): string {
  const real = path.join(tmpDir(), 'real');
  mkdirSync(real);
  writeFileSync(path.join(real, 'index.html'), `<!doctype html><html><body>${'<p>home page text</p>'.repeat(200)}</body></html>`);
  writeFileSync(path.join(real, '404.html'), '<!doctype html><html><body>not found page</body></html>');
  writeFileSync(path.join(real, 'style.css'), 'body { color: #222; }\n'.repeat(300));
  writeFileSync(path.join(real, 'rates.html'), '<!doctype html><html><body>rates page</body></html>');
  writeFileSync(path.join(real, 'café.html'), '<!doctype html><html><body>a page with an accent</body></html>');
  writeFileSync(path.join(real, 'photo.avif'), Buffer.alloc(4000, 7));
  symlinkSync('/etc/passwd', path.join(real, 'leak.txt'));
  symlinkSync('/etc', path.join(real, 'system'));
  symlinkSync('index.html', path.join(real, 'inner.html'));
  // Served through a link, as the build publishes it (dist -> .dist.builds/<id>).
  const link = path.join(path.dirname(real), 'dist');
  symlinkSync(real, link);
  return link;
}

describe('[R-SAFE-6][R-BUILD-8] local servers', () => {
  const root = site();
  const servers: { name: string; url: string; close(): Promise<void> }[] = [];

  beforeAll(async () => {
    const s = await startStaticServer({ root });
    servers.push({ name: 'static', url: s.url, close: () => new Promise((r) => s.server.close(() => r())) });
    const d = await startDevServer({ root, port: 0 });
    servers.push({ name: 'dev', url: d.url, close: () => d.close() });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('never follow a symlink out of the served folder (leak.txt -> /etc/passwd is a 404)', async () => {
    for (const s of servers) {
      for (const p of ['/leak.txt', '/leak', '/system/passwd', '/system/hostname']) {
        const r = await get(s.url, p);
        expect(r.status, `${s.name} ${p}`).toBe(404);
        expect(r.body.toString(), `${s.name} ${p}`).not.toContain('root:');
      }
      // A link that stays inside (and the served folder itself being a link) is fine.
      expect((await get(s.url, '/inner')).status, s.name).toBe(200);
      expect((await get(s.url, '/')).body.toString()).toContain('home page text');
    }
  });

  it('give a page one address, as the hosts do: /rates.html, /rates/, /index.html and /index answer one 301 to the clean URL (encoded), query kept', async () => {
    for (const s of servers) {
      for (const [from, to] of [
        ['/rates.html?x=1', '/rates?x=1'],
        ['/rates/', '/rates'],
        ['/rates.html/', '/rates'],
        ['/index.html', '/'],
        ['/index', '/'],
        ['/caf%C3%A9.html', '/caf%C3%A9'],
      ]) {
        const r = await get(s.url, from!);
        expect([r.status, r.headers.location], `${s.name} ${from}`).toEqual([301, to]);
      }
      expect((await get(s.url, '/rates')).body.toString(), s.name).toContain('rates page');
      expect((await get(s.url, '/nope.html')).status, s.name).toBe(404);
      expect((await get(s.url, '/style.css')).status, s.name).toBe(200);
    }
  });

  it('refuse a foreign Host (DNS rebinding) with 421; answer localhost and the bound address', async () => {
    for (const s of servers) {
      const port = new URL(s.url).port;
      for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`]) {
        const r = await get(s.url, '/', { Host: host });
        expect(r.status, `${s.name} Host: ${host}`).toBe(421);
        expect(r.body.toString()).not.toContain('home page text');
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'localhost']) expect((await get(s.url, '/', { Host: host })).status, `${s.name} Host: ${host}`).toBe(200);
    }
  });

  it('compress text as hosts do: brotli or gzip per Accept-Encoding, Vary: Accept-Encoding; images as they are', async () => {
    for (const s of servers) {
      const plain = await get(s.url, '/style.css');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/Accept-Encoding/);
      const br = await get(s.url, '/style.css', { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding'], s.name).toBe('br');
      expect(br.headers.vary).toMatch(/Accept-Encoding/);
      expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 4);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      const gz = await get(s.url, '/', { 'Accept-Encoding': 'gzip, br;q=0' });
      expect(gz.headers['content-encoding'], s.name).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toContain('home page text');
      const notFound = await get(s.url, '/missing', { 'Accept-Encoding': 'gzip' });
      expect(notFound.status).toBe(404);
      expect(gunzipSync(notFound.body).toString()).toContain('not found page');
      const image = await get(s.url, '/photo.avif', { 'Accept-Encoding': 'gzip, br' });
      expect(image.headers['content-encoding']).toBeUndefined();
      expect(image.body.byteLength).toBe(4000);
    }
  });

  it('`site serve --host <address>` binds that address and answers to it, still refusing other names', async () => {
    const { url, stop } = await serveCli(['--out', root, '--port', '0', '--host', '127.0.0.2']);
    try {
      expect(new URL(url).hostname).toBe('127.0.0.2');
      expect((await get(url, '/')).status).toBe(200);
      expect((await get(url, '/', { Host: 'evil.example' })).status).toBe(421);
    } finally {
      await stop();
    }
  });
});

describe('[R-SAFE-12][R-BUILD-8] site serve while builds are published into its folder', () => {
  it('answers every existing page (never 404) while builds publish into the served folder in a loop', async () => {
    const out = path.join(tmpDir(), 'dist');
    const pages = ['index', 'rates', 'about', 'es/rates', 'blog/page/2'];
    /** Publish a small build into `out` as `site build` does (its writer, its one-rename swap). */
    const publish = async (n: number) => {
      const writer = new DiskWriter(out);
      for (const p of pages) await writer.write(`${p}.html`, `<!doctype html><p>${p} of build ${n}</p>`);
      await writer.write('404.html', '<!doctype html><p>not found</p>');
      writer.writeBeside('notes.txt', `build ${n}`);
      await writer.commit();
      await writer.settled(); // the build it replaced removed, as a build ends
    };
    await publish(0);
    const server = await startDevServer({ root: out, port: 0 });
    let builds = 0;
    let stop = false;
    const publishing = (async () => {
      while (!stop) await publish(++builds);
    })();
    const wrong: string[] = [];
    let requests = 0;
    try {
      // Until enough builds went by (each one removes the build before it), or 8 s on a busy machine.
      const until = Date.now() + 8000;
      while (builds < 60 && Date.now() < until) {
        const replies = await Promise.all(pages.map((p) => get(server.url, p === 'index' ? '/' : `/${p}`)));
        replies.forEach((r, i) => {
          requests++;
          if (r.status !== 200 || !r.body.toString().includes(`${pages[i]} of build`)) wrong.push(`${pages[i]}: ${r.status} ${r.body.toString().slice(0, 60)}`);
        });
      }
    } finally {
      stop = true;
      await publishing;
      await server.close();
    }
    expect(wrong.slice(0, 5), `${wrong.length} of ${requests} requests failed during ${builds} builds`).toEqual([]);
    expect(builds).toBeGreaterThanOrEqual(10);
  });
});
