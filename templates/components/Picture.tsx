import { preload } from 'react-dom';
import type { PageContext } from '../model/index.ts';

interface Props {
  ctx: PageContext;
  file: string;
  alt: string;
  /** Above the fold: load eagerly with high priority (the LCP image), preloaded from the head. */
  priority?: boolean;
  /** Never shown (the hidden featured carousel): the JPEG alone, lazy, without the sources' URLs. */
  plain?: boolean;
  sizes?: string;
  /**
   * Leave out the sources' candidates wider than this (a thumbnail never shows more than 480 px);
   * the intrinsic size then is that of the widest one left.
   */
  maxWidth?: number;
  className?: string;
}

/** The candidates of a srcset up to `max` pixels wide (the narrowest at least), and the widest of them. */
function upTo(srcset: string, max: number): { srcset: string; width: number } {
  const candidates = srcset.split(', ').map((c) => ({ c, w: Number.parseInt(c.slice(c.lastIndexOf(' ') + 1), 10) }));
  const kept = candidates.filter((x) => x.w <= max);
  const list = kept.length ? kept : candidates.slice(0, 1);
  return { srcset: list.map((x) => x.c).join(', '), width: list.at(-1)!.w };
}

/**
 * A content image: AVIF and WebP sources in several widths (the browser picks by `sizes`), the
 * JPEG fallback in `src`, the intrinsic size (no layout shift) and lazy loading below the fold.
 *
 * The priority (LCP) image gets WebP only: AVIF is about a quarter smaller here (5.3 KB against
 * 7.3 KB at 800 px) but takes several times longer to decode, and the first frame waits for that
 * decode; measured in Lighthouse mobile, the about page's LCP median went from 1.12 s (AVIF) to
 * about 0.98 s (WebP, decoded off the critical path).
 */
export function Picture({ ctx, file, alt, priority, plain, sizes = '100vw', maxWidth, className }: Props) {
  const img = ctx.assets.image(file);
  const sources = plain ? [] : priority ? img.sources.filter((s) => s.type !== 'image/avif') : img.sources;
  const first = sources[0];
  // React hoists this into <head> as <link rel="preload" as="image" imagesrcset imagesizes
  // type="image/webp" fetchpriority="high">, so the LCP image starts loading before the stylesheet
  // is parsed; a browser without WebP skips it by its type and loads the <picture> as usual.
  if (priority && first) preload(img.src, { as: 'image', imageSrcSet: first.srcset, imageSizes: sizes, type: first.type, fetchPriority: 'high' });
  const capped = sources.map((s) => (maxWidth ? { type: s.type, ...upTo(s.srcset, maxWidth) } : { ...s, width: img.width }));
  // A capped picture's intrinsic size is its widest source's (the same aspect ratio: the same layout).
  const width = capped.length ? Math.max(...capped.map((s) => s.width)) : img.width;
  const height = Math.round((img.height * width) / img.width);
  const image = <img src={img.src} alt={alt} width={width} height={height} loading={priority ? 'eager' : 'lazy'} decoding="async" fetchPriority={priority ? 'high' : undefined} />;
  // No sources to choose from (the hidden featured carousel's plain JPEGs): the image alone, not
  // an empty <picture> around it (bytes of the first round trip on the home page).
  if (!capped.length && !className) return image;
  return (
    <picture className={className}>
      {capped.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcset} sizes={sizes} />
      ))}
      {image}
    </picture>
  );
}
