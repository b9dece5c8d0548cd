/**
 * Markdown to HTML for blog posts: one configured parser, raw HTML escaped (content is text), and
 * a bounded cost for any text the size limit allows (R-SAFE-14).
 *
 * marked's cost is quadratic on some text: each step of its inline lexer may scan the rest of the
 * paragraph. Measured on marked 18 (2 cores), 80 KB took 3 to 40 s for: `_a` or `a_` repeated
 * (the GFM e-mail autolink and text rules look for an `@` to the end of a run of e-mail characters
 * at every step), `*a ` … `a*` and `~~a ` … `a~~` (each opener scans to the far closer), tables
 * thousands of columns wide, block quotes with thousands of lazy lines; `> ` or `*a **a ` nested a
 * few thousand deep overflow the stack. So:
 *  - the e-mail and text rules look at most SCAN_WINDOW characters ahead (cut at a word boundary:
 *    no e-mail address has a local part over 64 characters);
 *  - an emphasis or strikethrough opener looks for its closer in the whole paragraph while the
 *    post's scan budget lasts (far more than any real post uses), then within SCAN_WINDOW;
 *  - a table may have at most MAX_TABLE_COLUMNS columns;
 *  - and, for any other input, a post whose markdown takes more than MARKDOWN_LIMIT_MS, or nests
 *    too deep for the stack, is an error naming the post (MarkdownLimitError), never a hang.
 * Ordinary posts render exactly as marked renders them (a 2 MB post of real text: ~0.2 s).
 */
import GithubSlugger from 'github-slugger';
import { Marked, Tokenizer, type Tokens } from 'marked';

/** A post whose markdown cannot be rendered within the limits: the message says what to change. */
export class MarkdownLimitError extends Error {
  /** The message as thrown (marked appends a line asking to report errors to it). */
  readonly reason: string;
  constructor(
    message: string,
    /** The first line of what is beyond the limits, as written (its line in the post is looked up by it), if one part is. */
    readonly at?: string,
  ) {
    super(message);
    this.reason = message;
  }
}

/** The first line of `src` (what a block rule is looking at), to find it in the post's file. */
const firstLine = (src: string) => src.slice(0, src.indexOf('\n') < 0 ? undefined : src.indexOf('\n')).trim();

/** How long one post's markdown may take (`SITE_MARKDOWN_LIMIT_MS`; 25 times a 2 MB post of real text). */
export const MARKDOWN_LIMIT_MS = Number(process.env.SITE_MARKDOWN_LIMIT_MS) || 5000;
/** How far ahead the e-mail and text rules (always) and emphasis openers (past the budget) look. */
const SCAN_WINDOW = 256;
/** How far ahead (whole lines) a setext heading's underline is looked for. */
const LINES_WINDOW = 4096;
/** Characters of whole-paragraph emphasis scans a post may use, per character of the post. */
const SCAN_BUDGET_PER_CHAR = 32;
/** Deepest nesting of block quotes and lists (each level lexes what it holds again). */
export const MAX_NESTING = 50;
/** Most runs of lazy lines (lines without `>`) in one block quote: each run costs a pass over the rest. */
export const MAX_LAZY_RUNS = 100;
/** The widest table: wider ones are padded row by row (the output grows with rows times columns). */
export const MAX_TABLE_COLUMNS = 128;
/** Longest run of characters an e-mail autolink may start with (RFC 5321: local parts are at most 64). */
const EMAIL_RUN = /^[A-Za-z0-9._+-]{65}/;

const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t';

/** Where to cut `src` to at most SCAN_WINDOW characters: after a space before a word, else at the window. */
function windowEnd(src: string): number {
  for (let j = SCAN_WINDOW; j > 0; ) {
    j = Math.max(src.lastIndexOf(' ', j - 1), src.lastIndexOf('\n', j - 1), src.lastIndexOf('\t', j - 1));
    if (j < 0) break;
    if (!isSpace(src[j + 1])) return j + 1;
  }
  return SCAN_WINDOW;
}

/** Runs of lines without a `>` marker (lazy continuation lines) after quoted lines in `quote`. */
function lazyRuns(quote: string): number {
  let runs = 0;
  let quoted = false;
  for (let start = 0; start < quote.length; ) {
    let i = start;
    while (i < start + 3 && quote.charCodeAt(i) === 32) i++;
    const marker = quote.charCodeAt(i) === 62;
    if (!marker && quoted) runs++;
    quoted = marker;
    const end = quote.indexOf('\n', start);
    start = end < 0 ? quote.length : end + 1;
  }
  return runs;
}

/** Columns of a table whose header is the first line of `src` (unescaped pipes between cells, as marked splits them). */
function headerColumns(src: string): number {
  const end = src.indexOf('\n');
  const line = (end < 0 ? src : src.slice(0, end)).trim();
  let pipes = 0;
  for (let i = line.indexOf('|'); i >= 0; i = line.indexOf('|', i + 1)) if (line.charCodeAt(i - 1) !== 92) pipes++;
  return pipes + 1 - (line.startsWith('|') ? 1 : 0) - (line.length > 1 && line.endsWith('|') && !line.endsWith('\\|') ? 1 : 0);
}

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

/** Create the markdown renderer used for every post of a build (`limitMs`: MARKDOWN_LIMIT_MS, tests set their own). */
export function createMarkdown({ limitMs = MARKDOWN_LIMIT_MS }: { limitMs?: number } = {}): (source: string) => string {
  // One slugger per document: two `## Notes` headings get `notes` and `notes-1` (GitHub's ids).
  const slugger = new GithubSlugger();
  // Per document: the emphasis scan budget left, the deadline, and steps since the clock was read.
  let budget = 0;
  let deadline = 0;
  let steps = 0;
  let depth = 0;
  /** Run a block quote's or list's own rule one level deeper (it lexes its contents inside). */
  const nested = <T>(rule: () => T): T => {
    if (++depth > MAX_NESTING) throw new MarkdownLimitError(`markdown: block quotes or lists are nested more than ${MAX_NESTING} deep in this post: flatten that part`);
    try {
      return rule();
    } finally {
      depth--;
    }
  };
  const onTime = (): undefined => {
    if ((++steps & 63) === 0 && performance.now() > deadline)
      throw new MarkdownLimitError(
        `markdown: rendering this post took over ${limitMs / 1000} s and was stopped. Some text makes markdown very slow: thousands of unmatched *, _, ~ or backticks, block quotes with thousands of lines without ">", or nesting thousands deep. Escape such characters (\\*) or simplify that part`,
      );
    return undefined;
  };
  /**
   * What an emphasis or strikethrough opener at `src` may scan: undefined for all of it (short, or
   * within the budget), else the window (the masked text from a little before `src`: the rule
   * looks back at the delimiter run it is in).
   */
  const windowed = (src: string, maskedSrc: string): [string, string] | undefined => {
    if (src.length <= SCAN_WINDOW) return undefined;
    budget -= src.length;
    if (budget > 0) return undefined;
    const start = maskedSrc.length - src.length;
    return [src.slice(0, SCAN_WINDOW), maskedSrc.slice(Math.max(0, start - 64), start + SCAN_WINDOW)];
  };
  const marked = new Marked({
    gfm: true,
    async: false,
    extensions: [
      // Never match: they only watch the clock at every step of the block and inline lexers.
      { name: 'deadline-block', level: 'block', tokenizer: onTime },
      { name: 'deadline-inline', level: 'inline', tokenizer: onTime },
    ],
    tokenizer: {
      emStrong(src, maskedSrc, prevChar) {
        const w = windowed(src, maskedSrc);
        return w ? Tokenizer.prototype.emStrong.call(this, w[0], w[1], prevChar) : false;
      },
      del(src, maskedSrc, prevChar) {
        const w = windowed(src, maskedSrc);
        return w ? Tokenizer.prototype.del.call(this, w[0], w[1], prevChar) : false;
      },
      url(src) {
        // An e-mail autolink cannot start with a run of more than 64 e-mail characters (`www.` can).
        return src.length > 64 && EMAIL_RUN.test(src) && !/^www\./i.test(src) ? undefined : false;
      },
      inlineText(src) {
        return src.length > SCAN_WINDOW ? Tokenizer.prototype.inlineText.call(this, src.slice(0, windowEnd(src))) : false;
      },
      blockquote(src) {
        return nested(() => {
          const quote = /^ {0,3}>/.test(src) ? this.rules.block.blockquote.exec(src)?.[0] : undefined;
          const runs = quote ? lazyRuns(quote) : 0;
          if (runs > MAX_LAZY_RUNS)
            throw new MarkdownLimitError(`markdown: a block quote in this post has ${runs} runs of lines that do not start with ">" (lazy continuation lines); at most ${MAX_LAZY_RUNS}: start every quoted line with ">"`, firstLine(quote!));
          return Tokenizer.prototype.blockquote.call(this, src);
        });
      },
      list(src) {
        return nested(() => Tokenizer.prototype.list.call(this, src));
      },
      codespan(src) {
        // A code span's opener looks for its closing run to the end of the paragraph: within the budget, then the window.
        if (src.length <= SCAN_WINDOW || src.charCodeAt(0) !== 96) return false;
        budget -= src.length;
        return budget > 0 ? false : Tokenizer.prototype.codespan.call(this, src.slice(0, SCAN_WINDOW));
      },
      lheading(src) {
        // A setext heading's text runs to its underline: lines of a list item are lexed one at a
        // time, and each looked for one to the item's end. No heading's text is thousands of characters.
        if (src.length <= LINES_WINDOW) return false;
        const end = src.lastIndexOf('\n', LINES_WINDOW);
        return Tokenizer.prototype.lheading.call(this, end > 0 ? src.slice(0, end + 1) : src.slice(0, LINES_WINDOW));
      },
      table(src) {
        const columns = headerColumns(src);
        if (columns <= MAX_TABLE_COLUMNS) return false;
        // Only a real table (its second line a delimiter row such as |---|:-:|) this wide is refused.
        const next = src.indexOf('\n');
        const end = src.indexOf('\n', next + 1);
        const second = next < 0 ? '' : src.slice(next + 1, end < 0 ? undefined : end);
        if (/^ {0,3}[|:-][ \t|:-]*$/.test(second) && /[|:]/.test(second))
          throw new MarkdownLimitError(`markdown: a table of ${columns} columns; tables may have at most ${MAX_TABLE_COLUMNS}: split it`, firstLine(src));
        return false;
      },
    },
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
    budget = SCAN_BUDGET_PER_CHAR * source.length + 100_000;
    deadline = performance.now() + limitMs;
    steps = 0;
    depth = 0;
    try {
      return marked.parse(source) as string;
    } catch (err) {
      if (err instanceof MarkdownLimitError) throw new MarkdownLimitError(err.reason, err.at);
      if (err instanceof RangeError && /call stack/i.test(err.message))
        throw new MarkdownLimitError('markdown: links or emphasis are nested too deeply in this post (thousands of levels) to render: flatten that part');
      throw err;
    }
  };
}
