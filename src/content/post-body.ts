/**
 * What the build needs of a post's body besides rendering it, known without reading the body for a
 * post whose file is unchanged since the build that kept it (content/load.ts, `postCache`): its
 * digest (the post page's input key, routes/inputs.ts) and whether it may hold a link or an image
 * (render/post-refs.ts lexes those). Such a post's body is read on first use: a build that renders
 * one post of 4,000 reads one file.
 */
import { hash } from 'node:crypto';
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

export interface BodyFacts {
  digest: string;
  links: boolean;
}

const bodyFacts = new WeakMap<Post, BodyFacts>();

/** The facts of a body at hand. */
export const factsOf = (body: string): BodyFacts => ({ digest: hash('sha256', body, 'base64url'), links: body.includes('](') || body.includes(']:') });

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

/** False when the post's body has no link or image (`[text](url)` or a reference definition). */
export const bodyMayLink = (post: Post): boolean => facts(post).links;

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
  if (digest !== undefined && factsOf(body).digest !== digest) throw new ContentChanged(rel, 'its text is not the one loaded');
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
