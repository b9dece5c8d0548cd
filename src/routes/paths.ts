/** URL and file naming rules (decisions.md): clean URLs, `{path}.html` files, default language at the root. */

/** `/prices` in `es` → `/es/prices`; the default language has no prefix; `/` in `es` → `/es`. */
export function localize(path: string, lang: string, defaultLanguage: string): string {
  if (lang === defaultLanguage) return path;
  return path === '/' ? `/${lang}` : `/${lang}${path}`;
}

/** The file a URL path is written to: `/` → `index.html`, `/es/prices` → `es/prices.html`. */
export function fileForPath(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
}

/** The URL path a written file answers to (inverse of fileForPath). */
export function pathForFile(file: string): string {
  if (file === 'index.html') return '/';
  return `/${file.replace(/\.html$/, '')}`;
}

/** The path part of a base URL without a trailing slash: '' at the root, '/site' for https://example.github.io/site. */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '');
}

/** A site path under the base path: ('/site', '/prices') → '/site/prices'; ('/site', '/') → '/site/'. */
export function withBase(basePath: string, path: string): string {
  if (!basePath) return path;
  return path === '/' ? `${basePath}/` : `${basePath}${path}`;
}

/** Absolute URL for a path on the site (the base URL may carry a base path). */
export function absoluteUrl(baseUrl: string, path: string): string {
  return path === '/' ? `${baseUrl}/` : `${baseUrl}${path}`;
}
