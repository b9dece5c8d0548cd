/**
 * A production-like static file server for `dist/`: clean URLs (`/rates` → `rates.html`),
 * per-language 404 pages, correct content types, no directory listing, and no path that escapes
 * the output folder. Used by `site serve`, the watch server and the browser tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';

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

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isFile();
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
    if (await isFile(full)) return full;
  }
  return undefined;
}

/** The not-found page for a path: `/es/...` → `es/404.html`, else `404.html`. */
export async function notFoundFile(root: string, urlPath: string): Promise<string | undefined> {
  const first = urlPath.split('/')[1];
  if (first && /^[a-z]{2,3}(?:-[A-Z]{2})?$/.test(first)) {
    const localized = path.join(root, first, '404.html');
    if (await isFile(localized)) return localized;
  }
  const root404 = path.join(root, '404.html');
  return (await isFile(root404)) ? root404 : undefined;
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

/** Handle one request; exported so other servers can compose it. */
export async function serveStatic(req: IncomingMessage, res: ServerResponse, opts: StaticServerOptions): Promise<void> {
  const root = path.resolve(opts.root);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const urlPath = safePath(req.url ?? '/');
  if (urlPath === undefined) {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request');
    return;
  }
  let file = await resolveFile(root, urlPath);
  let status = 200;
  if (!file) {
    const ruled = opts.notFound?.(urlPath);
    file = ruled ? path.join(root, ruled) : undefined;
    if (!file || !file.startsWith(root + path.sep) || !(await isFile(file))) file = await notFoundFile(root, urlPath);
    status = 404;
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
  }
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  let body: Buffer | string = await fs.readFile(file);
  if (type.startsWith('text/html') && opts.transformHtml) body = opts.transformHtml(body.toString('utf8'));
  res.writeHead(status, { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', ...opts.headers?.(urlPath, file) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Start a server on `port` (0: any free port) at 127.0.0.1. */
export function startStaticServer(opts: StaticServerOptions, port = 0): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    serveStatic(req, res, opts).catch((err) => {
      res.writeHead(500).end(String(err));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      resolve({ server, url: `http://127.0.0.1:${actual}` });
    });
  });
}
