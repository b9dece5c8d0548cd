/** Markdown to HTML for blog posts: one configured parser, raw HTML escaped (content is text). */
import { Marked, type Tokens } from 'marked';

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Headings get stable ids so a post's sections can be linked. */
function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Create the markdown renderer used for every post of a build. */
export function createMarkdown(): (source: string) => string {
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
        return `<h${level} id="${slugify(token.text)}">${text}</h${level}>\n`;
      },
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = token.href;
        if (!/^(https?:|mailto:|tel:|\/|#)/i.test(href)) return text; // no javascript: and friends
        const external = /^https?:/i.test(href);
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        const rel = external ? ' rel="noopener noreferrer" target="_blank"' : '';
        return `<a href="${escapeHtml(href)}"${title}${rel}>${text}</a>`;
      },
      image(token: Tokens.Image) {
        return escapeHtml(token.text); // images in posts are not processed; keep the alt text
      },
    },
  });
  return (source) => marked.parse(source) as string;
}
