/** Markdown to HTML for blog posts: one configured parser, raw HTML escaped (content is text). */
import GithubSlugger from 'github-slugger';
import { Marked, type Tokens } from 'marked';

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Markers the render stage resolves (render/post-refs.ts): a same-site link, a relative link and an
 * image. Post text cannot produce them: raw HTML and every attribute are escaped.
 */
export const LINK_MARK = 'data-site-href';
export const REL_MARK = 'data-site-rel';
export const IMAGE_MARK = 'data-site-image';

/**
 * Links that leave the site although they look root-relative: `//host` and `/\host` (browsers
 * read a backslash as a slash), so they are never treated as same-site paths.
 */
export function isExternalHref(href: string): boolean {
  return /^[/\\][/\\]/.test(href);
}

/** Create the markdown renderer used for every post of a build. */
export function createMarkdown(): (source: string) => string {
  // One slugger per document: two `## Notes` headings get `notes` and `notes-1` (GitHub's ids).
  const slugger = new GithubSlugger();
  const marked = new Marked({
    gfm: true,
    async: false,
    renderer: {
      // Raw HTML in a post would bypass escaping and the CSP; show it as text instead.
      html(token: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(token.text);
      },
      heading(token: Tokens.Heading) {
        const text = this.parser.parseInline(token.tokens);
        const level = Math.min(6, token.depth + 1); // the page title is the only h1
        return `<h${level} id="${escapeHtml(slugger.slug(token.text))}">${text}</h${level}>\n`;
      },
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = token.href;
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        if (isExternalHref(href) || /^https?:/i.test(href)) return `<a href="${escapeHtml(href)}"${title} rel="noopener noreferrer" target="_blank">${text}</a>`;
        if (/^(mailto:|tel:|#)/i.test(href)) return `<a href="${escapeHtml(href)}"${title}>${text}</a>`;
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return text; // no javascript: and friends
        // Same-site and relative links are resolved per page (the post's language, its URL).
        return `<a ${href.startsWith('/') ? LINK_MARK : REL_MARK}="${escapeHtml(href)}"${title}>${text}</a>`;
      },
      image(token: Tokens.Image) {
        // Resolved to the image pipeline's <picture> per page (render/post-refs.ts).
        return `<img ${IMAGE_MARK}="${escapeHtml(token.href)}" alt="${escapeHtml(token.text)}">`;
      },
    },
  });
  return (source) => {
    slugger.reset();
    return marked.parse(source) as string;
  };
}
