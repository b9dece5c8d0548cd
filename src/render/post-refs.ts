/**
 * Links and images inside blog posts. The markdown renderer (content/markdown.ts) leaves same-site
 * links and images as markers; here they are resolved against the site: a same-site link goes to
 * the post's language, a relative one is resolved from the post's URL, an image becomes the image
 * pipeline's <picture>. The build checks every reference first (checkPostRefs), so rendering never
 * meets a broken one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostics } from '../diagnostics.ts';
import type { Post, Site } from '../content/model.ts';
import { bodyRefs } from '../content/post-body.ts';
import type { RouteTable } from '../routes/table.ts';
import { localize } from '../routes/paths.ts';
import { LINK_MARK, REL_MARK, IMAGE_MARK, isExternalHref } from '../content/markdown.ts';
import type { ImageAsset } from './context.ts';

/** Image files the pipeline converts. */
const RASTER = /\.(?:jpe?g|png|webp|avif|svg)$/i;

/** The file under content/images that a post's image `href` names, or why it cannot be used. */
export function resolvePostImage(post: Pick<Post, 'file'>, href: string): { file: string } | { error: string } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || isExternalHref(href))
    return { error: `image "${href}" is on another site: put it under content/images and write /images/<file>` };
  let clean: string;
  try {
    clean = decodeURI(href.split(/[?#]/)[0]!);
  } catch {
    return { error: `image "${href}" is not a valid path (a stray % sign?)` };
  }
  const rel = clean.startsWith('/') ? clean.slice(1) : path.posix.normalize(path.posix.join(path.posix.dirname(post.file), clean));
  if (!rel.startsWith('images/') || rel.includes('..')) return { error: `image "${href}" is not under content/images (write /images/<file> or a path from the post to it)` };
  const file = rel.slice('images/'.length);
  if (!RASTER.test(file)) return { error: `image "${href}" is not a JPEG, PNG, WebP, AVIF or SVG file` };
  return { file };
}

/** Languages a path already starts with (`/es/prices` is Spanish already). */
function hasLanguage(p: string, site: Site): boolean {
  return site.languages.some((l) => l !== site.defaultLanguage && (p === `/${l}` || p.startsWith(`/${l}/`)));
}

/**
 * Where a same-site (`/prices`) or relative (`../other-post`) link of a post goes: the page in the
 * post's language when it exists, else the page as written; an error when neither is a page.
 */
export function resolvePostLink(post: Post, href: string, relative: boolean, site: Site, routes: Pick<RouteTable, 'byPath'>): { href: string } | { error: string } {
  const cut = href.search(/[?#]/);
  const [rawPath, rest] = cut < 0 ? [href, ''] : [href.slice(0, cut), href.slice(cut)];
  if (rawPath === '') return { href };
  // A relative link is read from the post's own URL, as a browser would (in the default language).
  const base = `${site.blog.path}/${post.slug}`;
  let p = relative ? new URL(rawPath, `http://site${base}`).pathname : rawPath;
  p = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const candidates = hasLanguage(p, site) ? [p] : [localize(p, post.lang, site.defaultLanguage), p];
  const found = candidates.find((c) => routes.byPath.has(c));
  if (found) return { href: found + rest };
  return { error: `link "${href}" ${relative ? `(read as ${p}) ` : ''}is not a page of the site` };
}

/** 1-based line of `needle` in the post's file (the front matter counted), for diagnostics. */
const lineIn = (contentDir: string, post: Post, needle: string) => lineInFile(contentDir, post.file, needle);

/** 1-based line of the first `needle` in a content file (`file`: content-relative), for diagnostics; undefined if not found. */
export function lineInFile(contentDir: string, file: string, needle: string): number | undefined {
  try {
    const source = readFileSync(path.join(contentDir, file), 'utf8');
    const at = source.indexOf(needle);
    return at < 0 ? undefined : source.slice(0, at).split('\n').length;
  } catch {
    return undefined;
  }
}

/** An image a post shows: the file under content/images and its alt text. */
export interface PostImageUse {
  post: Post;
  file: string;
  alt: string;
}

/**
 * Check every image (`imageExists`: in the images folder as the image stage lists it) and
 * same-site or relative link of every post; returns the images the posts
 * use (each post's in the order they appear), so the image stage encodes and names them and the
 * post is shared with its first one.
 */
export function checkPostRefs(site: Site, routes: RouteTable, contentDir: string, diags: Diagnostics, imageExists: (file: string) => boolean): PostImageUse[] {
  const images: PostImageUse[] = [];
  const targets = new Map<string, string>();
  linkTargets.set(routes, targets);
  for (const post of site.posts) {
    const report = (raw: string, message: string) =>
      diags.error({ code: 'post-link', file: post.file, line: lineIn(contentDir, post, raw), field: raw.length > 80 ? `${raw.slice(0, 77)}…` : raw, message });
    for (const ref of bodyRefs(post)) {
      if (ref.image) {
        const r = resolvePostImage(post, ref.href);
        if ('error' in r) report(ref.raw, r.error);
        else if (!imageExists(r.file)) report(ref.raw, `image "${ref.href}" does not exist (content/images/${r.file})`);
        else images.push({ post, file: r.file, alt: ref.text });
      } else {
        const kind = linkKind(ref.href);
        if (kind !== 'local' && kind !== 'relative') continue;
        const r = resolvePostLink(post, ref.href, kind === 'relative', site, routes);
        if ('error' in r) report(ref.raw, r.error);
        else targets.set(post.file, `${targets.get(post.file) ?? ''}${r.href}\n`);
      }
    }
  }
  return images;
}

/**
 * Where each post's same-site links go, by post file, as the last check of a route table found
 * (`checkPostRefs`): part of the post page's input key (routes/inputs.ts). A link goes to its
 * target's version in the post's language when there is one, so the page changes when that version
 * comes or goes, though the post does not.
 */
const linkTargets = new WeakMap<RouteTable, Map<string, string>>();
export function postLinkTargets(routes: RouteTable, post: Post): string {
  return linkTargets.get(routes)?.get(post.file) ?? '';
}

/** How the markdown renderer treats a link target. */
export function linkKind(href: string): 'external' | 'local' | 'relative' | 'anchor' | 'unsafe' {
  if (isExternalHref(href) || /^(https?:|mailto:|tel:)/i.test(href)) return 'external';
  if (href.startsWith('#')) return 'anchor';
  if (href.startsWith('/')) return 'local';
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return 'unsafe';
  return 'relative';
}

const MARKERS = new RegExp(`<a ${LINK_MARK}="([^"]*)"|<a ${REL_MARK}="([^"]*)"|<img ${IMAGE_MARK}="([^"]*)" alt="([^"]*)">`, 'g');

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A post image as the image pipeline serves it: AVIF/WebP srcsets, intrinsic size, lazy. */
function picture(img: ImageAsset, alt: string): string {
  const sources = img.sources.map((s) => `<source type="${s.type}" srcset="${escapeAttr(s.srcset)}" sizes="(min-width: 760px) 720px, 100vw"/>`).join('');
  return `<picture class="post-image">${sources}<img src="${escapeAttr(img.src)}" alt="${alt}" width="${img.width}" height="${img.height}" loading="lazy" decoding="async"/></picture>`;
}

/** Replace the markdown renderer's markers in a post's HTML with resolved links and pictures. */
export function finishPostHtml(html: string, post: Post, site: Site, routes: Pick<RouteTable, 'byPath'>, image: (file: string) => ImageAsset): string {
  if (!html.includes('data-site-')) return html;
  return html.replace(MARKERS, (_whole: string, local?: string, rel?: string, src?: string, alt?: string) => {
    if (src !== undefined) {
      const r = resolvePostImage(post, unescape(src));
      // checkPostRefs reported it already; keep the alt text rather than a broken image.
      return 'file' in r ? picture(image(r.file), alt ?? '') : (alt ?? '');
    }
    const href = unescape(local ?? rel ?? '');
    const r = resolvePostLink(post, href, rel !== undefined, site, routes);
    return `<a href="${escapeAttr('href' in r ? r.href : href)}"`;
  });
}
