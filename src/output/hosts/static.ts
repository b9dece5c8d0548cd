/**
 * Plain file hosts (GitHub Pages, any static server): only the pages. Redirects are the HTML stubs
 * (meta refresh + canonical), the root `404.html` is the one not-found page, and the CSP comes
 * from each page's `<meta>`. `.nojekyll` stops GitHub Pages from running Jekyll over the folder.
 */
import type { HostWriter } from './types.ts';

export const staticHost: HostWriter = () => ({ web: [{ file: '.nojekyll', content: '' }], beside: [] });
