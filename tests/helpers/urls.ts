/** Map between absolute URLs of the shipped site and files in dist (decisions.md naming). */
export const BASE = 'https://aurelia-companion.example';

export function fileForUrl(url: string, base = BASE): string {
  const p = url.startsWith(base) ? url.slice(base.length) || '/' : url;
  return p === '/' ? 'index.html' : `${p.replace(/^\//, '')}.html`;
}

export function urlForFile(file: string, base = BASE): string {
  return file === 'index.html' ? `${base}/` : `${base}/${file.replace(/\.html$/, '')}`;
}
