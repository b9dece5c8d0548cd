/**
 * What the build needs of a post's body besides rendering it, known without reading the body for a
 * post whose file is unchanged since the build that kept it (content/load.ts, `postCache`): its
 * digest (the post page's input key, routes/inputs.ts), whether it may hold a link or an image, and
 * those links and images (render/post-refs.ts checks them on every build). Such a post's body is
 * read on first use: a build that renders one post of 4,000 reads one file, and lexes none of the
 * others (lexing the shipped site's posts for their links was ~50 ms of every build).
 */
import { hash } from 'node:crypto';
import { Marked, type Token } from 'marked';
import { Diagnostics } from '../diagnostics.ts';
import type { Post } from './model.ts';
import { readContentTextSync } from './read.ts';

/** Front matter between a first line `---` and the next line `---`, then the markdown body. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)^---[ \t]*\r?$\n?/my;

/**
 * Split a post into its front matter (YAML, starting on line 2) and markdown body; undefined when
 * the front matter is not closed. Page workers use it to read the bodies of the posts they render.
 */
export function splitFrontMatter(source: string): { matter: string; body: string } | undefined {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1); // a BOM before the first ---
  FRONT_MATTER.lastIndex = 0;
  const m = FRONT_MATTER.exec(source);
  return m ? { matter: m[1]!, body: source.slice(m[0].length) } : undefined;
}

/** An image or link of a post's markdown body, as written. */
export interface BodyRef {
  image: boolean;
  href: string;
  raw: string;
  text: string;
}

export interface BodyFacts {
  digest: string;
  links: boolean;
  /** Its images and links, in order (kept with the post: content/load.ts); absent when `links` is false, or not worked out yet. */
  refs?: readonly BodyRef[];
}

const bodyFacts = new WeakMap<Post, BodyFacts>();

const digestOf = (body: string) => hash('sha256', body, 'base64url');
const mayLink = (body: string) => body.includes('](') || body.includes(']:');

/** The facts of a body at hand; `refs`: its links and images too (loading keeps them with the post). */
export const factsOf = (body: string, refs = false): BodyFacts => {
  const links = mayLink(body);
  return { digest: digestOf(body), links, ...(refs && links && { refs: refsOf(body) }) };
};

/** Facts kept from an earlier build (a post cache entry) of the shape this version writes: refs present where there are links. */
export function soundFacts(f: Partial<BodyFacts>): boolean {
  const ref = (r: Partial<BodyRef> | null) => typeof r === 'object' && r !== null && typeof r.image === 'boolean' && typeof r.href === 'string' && typeof r.raw === 'string' && typeof r.text === 'string';
  return typeof f.digest === 'string' && typeof f.links === 'boolean' && (f.links ? Array.isArray(f.refs) && f.refs.every(ref) : f.refs === undefined);
}

const lexer = new Marked({ gfm: true, async: false });

/**
 * The images and links of a markdown body, in order: lexed once per distinct body (a watch
 * session checks every post on every rebuild; lexing them all cost ~14 ms of each).
 */
const refsCache = new Map<string, readonly BodyRef[]>();
function refsOf(body: string): readonly BodyRef[] {
  let refs = refsCache.get(body);
  if (!refs) {
    const found: BodyRef[] = [];
    lexer.walkTokens(lexer.lexer(body) as Token[], (token) => {
      if (token.type === 'image' || token.type === 'link') found.push({ image: token.type === 'image', href: token.href, raw: token.raw, text: token.text });
    });
    refs = found;
    // Bounded: a long session or a huge blog keeps the last few thousand bodies.
    if (refsCache.size >= 8192) refsCache.delete(refsCache.keys().next().value!);
    refsCache.set(body, refs);
  }
  return refs;
}

/** Record what loading knows of `post`'s body. */
export function noteBody(post: Post, facts: BodyFacts): void {
  bodyFacts.set(post, facts);
}

/** What is known of `post`'s body; worked out from the body for a post loading did not note (watch, page workers, builds in memory). */
function facts(post: Post): BodyFacts {
  let f = bodyFacts.get(post);
  if (!f) bodyFacts.set(post, (f = factsOf(post.body)));
  return f;
}

/** A digest of a post's markdown body, the same whether the body was read in this build or not. */
export const bodyDigest = (post: Post): string => facts(post).digest;

/** The images and links of a post's body, in order: kept from an earlier build, else lexed (reading an unread body). */
export function bodyRefs(post: Post): readonly BodyRef[] {
  const f = facts(post);
  // No link or image (`[text](url)` or a reference definition): no lexing, no read of the body.
  if (!f.links) return [];
  return f.refs ?? refsOf(post.body);
}

/** Where each unread post's body is (its file, shown as its content-relative path), and the body once read. */
const unread = new WeakMap<object, { abs: string; rel: string; body?: string }>();

/**
 * A post's file changed while the site was being built: its body, read when a page needed it, is
 * not the one the build planned with (its digest is in the page's input key). Reported as an error
 * naming the file (`build` turns it into a build error); nothing is published.
 */
export class ContentChanged extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file} changed while the site was being built (${why}): build again`);
  }
}

/** `body` as read now, checked against the digest the build planned with (undefined: not known). */
export function checkedBody(rel: string, body: string | undefined, digest: string | undefined, why = 'its front matter is not closed'): string {
  if (body === undefined) throw new ContentChanged(rel, why);
  if (digest !== undefined && digestOf(body) !== digest) throw new ContentChanged(rel, 'its text is not the one loaded');
  return body;
}

/**
 * Unread posts share one prototype whose `body` getter reads the post's file on first use, so they
 * share one shape (a getter of their own would give each post its own hidden class, and every
 * function touching posts would slow down). The file had the kept stamp when the build started; one
 * that no longer holds a post, or holds another text than the one kept, is an error naming it.
 */
const UNREAD = Object.freeze({
  get body(): string {
    const where = unread.get(this)!;
    if (where.body === undefined) {
      const diags = new Diagnostics();
      // Not a linked post (those are always read at load): no need to resolve where it lies.
      const source = readContentTextSync(where.abs, where.rel, diags, undefined, { linked: false });
      const body = source === undefined ? undefined : splitFrontMatter(source)?.body;
      where.body = checkedBody(where.rel, body, bodyFacts.get(this as unknown as Post)?.digest, diags.items[0]?.message);
    }
    return where.body;
  },
});

/** Whether `post`'s body has not been read yet (it will be read from its file, and checked, on first use). */
export function isUnread(post: Post): boolean {
  const where = unread.get(post);
  return where !== undefined && where.body === undefined;
}

/** A new object for an unread post: its fields are assigned by the caller, its body is read on first use. */
export function unreadPost(abs: string, rel: string): Post {
  const post = Object.create(UNREAD) as Post;
  unread.set(post, { abs, rel });
  return post;
}
