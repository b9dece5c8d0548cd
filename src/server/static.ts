/**
 * A production-like static file server for `dist/`: clean URLs (`/prices` → `prices.html`),
 * per-language 404 pages, correct content types, gzip/brotli as hosts send them, no directory
 * listing, no path (or symlink) that escapes the output folder, and no answer to a foreign `Host`
 * (DNS rebinding). Used by `site serve`, the watch server and the browser tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Host configuration (`_redirects`, `_headers`, `_nginx/`) is never served, nor are dotfiles. */
const HIDDEN = /(^|\/)[_.]/;

/** The query of a request URL, with its `?` ('' when none). */
export function queryOf(rawUrl = ''): string {
  const at = rawUrl.indexOf('?');
  return at < 0 ? '' : rawUrl.slice(at).split('#')[0]!;
}

/** Decode and check a request path; undefined when it is malformed or tries to escape. */
export function safePath(rawUrl: string): string | undefined {
  const pathname = rawUrl.split('?')[0]!.split('#')[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return undefined;
  return path.posix.normalize(decoded);
}

/** The served folder with its symlinks resolved (the output path links to the live build). */
export async function realRoot(root: string): Promise<string> {
  return fs.realpath(root).catch(() => root);
}

/**
 * How long a request keeps following newer builds when one was published into the folder while it
 * ran. A time, not a number of tries: builds may be published faster than a request is answered
 * (dev-server.test publishes a build every few milliseconds in the server's own process; on tmpfs,
 * 20 tries left 1-9 of 15 requests with only removed builds). Real builds take far longer than one
 * try, so a request normally needs one more.
 */
const RETRY_MS = 2000;

/**
 * Whether the folder `root` (a link, as `dist` is) now shows another build than `served`, its target
 * when the try started: undefined once the request has been tried for RETRY_MS since `since`.
 */
export function republished(root: string, served: string, since: number): (() => Promise<boolean>) | undefined {
  return performance.now() - since < RETRY_MS ? async () => (await realRoot(root)) !== served : undefined;
}

/** A regular file whose real path (symlinks followed) lies inside the served folder. */
async function isFile(p: string, root?: string): Promise<boolean> {
  try {
    if (!(await fs.stat(p)).isFile()) return false;
    if (root === undefined) return true;
    const realFile = await fs.realpath(p);
    const base = await realRoot(root);
    return realFile.startsWith(base + path.sep);
  } catch {
    return false;
  }
}

/** Map a URL path to a file under `root` following the host rules; undefined means 404. */
export async function resolveFile(root: string, urlPath: string): Promise<string | undefined> {
  if (HIDDEN.test(urlPath)) return undefined;
  const clean = urlPath.length > 1 ? urlPath.replace(/\/+$/, '') : urlPath;
  const candidates = clean === '/' ? ['index.html'] : [clean.slice(1), `${clean.slice(1)}.html`];
  for (const c of candidates) {
    const full = path.join(root, c);
    if (!full.startsWith(root + path.sep)) return undefined;
    if (await isFile(full, root)) return full;
  }
  return undefined;
}

/**
 * The clean URL of a page asked for by another spelling (`/x.html`, `/x/`, `/index.html`, `/index`),
 * as the hosts answer it with a redirect (Cloudflare 308, Netlify and Vercel 301; nginx 301 for
 * `/x/` and 404 for `/x.html`): a page has one address, locally too. Undefined when the
 * path is already clean or names no page.
 */
export async function cleanPath(root: string, urlPath: string): Promise<string | undefined> {
  // Every spelling at once (`/x.html/` → `/x`, not through `/x.html`): one redirect.
  const clean = urlPath.replace(/\/+$/, '').replace(/(?:\.html|(?:^|\/)index(?:\.html)?)$/, '') || '/';
  if (clean === urlPath || HIDDEN.test(urlPath)) return undefined;
  const page = await resolveFile(root, urlPath);
  return page !== undefined && page.endsWith('.html') && (await resolveFile(root, clean)) === page ? clean : undefined;
}

/** A decoded URL path as it goes into a `Location` header: each segment percent-encoded again. */
export function encodedPath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

/** The not-found page for a path: `/es/...` → `es/404.html`, else `404.html`. */
export async function notFoundFile(root: string, urlPath: string): Promise<string | undefined> {
  const first = urlPath.split('/')[1];
  if (first && /^[a-z]{2,3}(?:-[A-Z]{2})?$/.test(first)) {
    const localized = path.join(root, first, '404.html');
    if (await isFile(localized, root)) return localized;
  }
  const root404 = path.join(root, '404.html');
  return (await isFile(root404, root)) ? root404 : undefined;
}

export interface StaticServerOptions {
  root: string;
  /** Extra headers per response (the dev server applies `_headers` here). */
  headers?: (urlPath: string, file: string) => Record<string, string>;
  /** Transform HTML before sending (the dev server injects its reload script). */
  transformHtml?: (html: string) => string;
  /** The not-found page for a path from the host rules (`/es/404.html`); default by language prefix. */
  notFound?: (urlPath: string) => string | undefined;
}

/**
 * Handle one request; exported so other servers can compose it. A build may publish into the
 * served folder at any moment (its link switches to another build and the previous one is
 * removed), so each attempt resolves the link once and serves from that build only; an answer the
 * switch spoilt (not found, or a file gone while read) is tried again on the new build.
 */
export async function serveStatic(req: IncomingMessage, res: ServerResponse, opts: StaticServerOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const urlPath = safePath(req.url ?? '/');
  if (urlPath === undefined) {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request');
    return;
  }
  const root = path.resolve(opts.root);
  const clean = await cleanPath(await realRoot(root), urlPath);
  if (clean !== undefined) {
    res.writeHead(301, { Location: encodedPath(clean) + queryOf(req.url) }).end();
    return;
  }
  const since = performance.now();
  for (;;) {
    const served = await realRoot(root);
    if (await serveFrom(served, urlPath, req, res, opts, republished(root, served, since))) return;
  }
}

/**
 * Answer `urlPath` from the folder `root` (symlinks already resolved). Before answering 404, or
 * when a file vanishes while it is read, `stale` is asked whether the served folder has changed
 * since: then nothing is sent and false returned (the caller tries again). True once answered.
 */
export async function serveFrom(
  root: string,
  urlPath: string,
  req: IncomingMessage,
  res: ServerResponse,
  opts: Omit<StaticServerOptions, 'root'>,
  stale?: () => Promise<boolean>,
): Promise<boolean> {
  let file = await resolveFile(root, urlPath);
  let status = 200;
  if (!file) {
    if (await stale?.()) return false;
    const ruled = opts.notFound?.(urlPath);
    file = ruled ? path.join(root, ruled) : undefined;
    if (!file || !file.startsWith(root + path.sep) || !(await isFile(file, root))) file = await notFoundFile(root, urlPath);
    status = 404;
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return true;
    }
  }
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  let body: Buffer | string;
  try {
    body = await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await stale?.())) return false;
    throw err;
  }
  if (type.startsWith('text/html') && opts.transformHtml) body = opts.transformHtml(body.toString('utf8'));
  const headers: Record<string, string> = { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', ...opts.headers?.(urlPath, file) };
  let bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (COMPRESSIBLE.test(type)) {
    headers.Vary = 'Accept-Encoding';
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (encoding) {
      bytes = compressed(bytes, encoding);
      headers['Content-Encoding'] = encoding;
    }
  }
  headers['Content-Length'] = String(bytes.byteLength);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes);
  return true;
}

/** Text types hosts compress (HTML, CSS, JS, JSON, XML, SVG, text, web manifest); images are already compressed. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|manifest\+json|xml)|image\/svg\+xml)/;

/** Brotli when the client takes it, else gzip, else none (a `q=0` refuses an encoding). */
export function chooseEncoding(accept: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const q = new Map<string, number>();
  for (const part of String(accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/** Compressed bodies by encoding and content hash (pages are requested again and again). */
const compressedCache = new Map<string, Buffer>();

/** Compress at the levels hosts use for on-the-fly compression (brotli 5, gzip 6). */
function compressed(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  const key = `${encoding}:${createHash('sha1').update(body).digest('hex')}`;
  let out = compressedCache.get(key);
  if (!out) {
    out = encoding === 'br' ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }) : gzipSync(body, { level: 6 });
    if (compressedCache.size >= 500) compressedCache.delete(compressedCache.keys().next().value!);
    compressedCache.set(key, out);
  }
  return out;
}

/**
 * The host names a local server answers to: localhost and the loopback addresses, plus the bound
 * address (`--host`); bound to every interface (0.0.0.0 or ::), each interface's address.
 */
export function allowedHosts(bound: string): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', bound.includes(':') ? `[${bound}]` : bound]);
  if (bound === '0.0.0.0' || bound === '::') {
    for (const list of Object.values(os.networkInterfaces())) for (const i of list ?? []) names.add(i.family === 'IPv6' ? `[${i.address}]` : i.address);
  }
  return names;
}

/**
 * Refuse (421) a request whose `Host` is not one of `allowed`: a page on another site that points
 * its own name at 127.0.0.1 (DNS rebinding) must not read the dev site. True when answered.
 */
export function refuseForeignHost(req: IncomingMessage, res: ServerResponse, allowed: ReadonlySet<string>): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  if (allowed.has(name)) return false;
  res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Misdirected request: this server answers only to ${[...allowed].join(', ')}\n`);
  return true;
}

/** Start a server on `port` (0: any free port) at `host` (default 127.0.0.1). */
export function startStaticServer(opts: StaticServerOptions, port = 0, host = '127.0.0.1'): Promise<{ server: Server; url: string }> {
  const allowed = allowedHosts(host);
  const server = createServer((req, res) => {
    if (refuseForeignHost(req, res, allowed)) return;
    serveStatic(req, res, opts).catch((err) => {
      res.writeHead(500).end(String(err));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      resolve({ server, url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}` });
    });
  });
}
