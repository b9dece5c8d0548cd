/** Map between absolute URLs of the shipped site and files in dist (decisions.md naming). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SHIPPED_CONTENT } from './site.ts';

/** The shipped site's base URL (site.yaml baseUrl, no trailing slash). */
export const BASE = (parse(readFileSync(path.join(SHIPPED_CONTENT, 'site.yaml'), 'utf8')).baseUrl as string).replace(/\/+$/, '');

export function fileForUrl(url: string, base = BASE): string {
  const p = url.startsWith(base) ? url.slice(base.length) || '/' : url;
  return p === '/' ? 'index.html' : `${p.replace(/^\//, '')}.html`;
}

export function urlForFile(file: string, base = BASE): string {
  return file === 'index.html' ? `${base}/` : `${base}/${file.replace(/\.html$/, '')}`;
}
