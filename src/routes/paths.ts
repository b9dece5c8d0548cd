/** URL and file naming rules (decisions.md): clean URLs, `{path}.html` files, default language at the root. */

/** `/rates` in `es` → `/es/rates`; the default language has no prefix; `/` in `es` → `/es`. */
export function localize(path: string, lang: string, defaultLanguage: string): string {
  if (lang === defaultLanguage) return path;
  return path === '/' ? `/${lang}` : `/${lang}${path}`;
}

/** The file a URL path is written to: `/` → `index.html`, `/es/rates` → `es/rates.html`. */
export function fileForPath(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
}

/** The URL path a written file answers to (inverse of fileForPath). */
export function pathForFile(file: string): string {
  if (file === 'index.html') return '/';
  return `/${file.replace(/\.html$/, '')}`;
}

/** Absolute URL for a path on the site. */
export function absoluteUrl(baseUrl: string, path: string): string {
  return path === '/' ? `${baseUrl}/` : `${baseUrl}${path}`;
}
