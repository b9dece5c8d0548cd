import { preload } from 'react-dom';
import type { PageContext } from '../../src/render/context.ts';

interface Props {
  ctx: PageContext;
  file: string;
  alt: string;
  /** Above the fold: load eagerly with high priority (the LCP image), preloaded from the head. */
  priority?: boolean;
  sizes?: string;
  className?: string;
}

/**
 * A content image: AVIF and WebP sources in several widths (the browser picks by `sizes`), the
 * JPEG fallback in `src`, the intrinsic size (no layout shift) and lazy loading below the fold.
 */
export function Picture({ ctx, file, alt, priority, sizes = '100vw', className }: Props) {
  const img = ctx.assets.image(file);
  const avif = img.sources.find((s) => s.type === 'image/avif');
  // React hoists this into <head> as <link rel="preload" as="image" imagesrcset imagesizes
  // type="image/avif" fetchpriority="high">, so the LCP image starts loading before the stylesheet
  // is parsed; browsers without AVIF skip it by its type and load the <picture> as usual.
  if (priority && avif) preload(img.src, { as: 'image', imageSrcSet: avif.srcset, imageSizes: sizes, type: avif.type, fetchPriority: 'high' });
  return (
    <picture className={className}>
      {img.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcset} sizes={sizes} />
      ))}
      <img
        src={img.src}
        alt={alt}
        width={img.width}
        height={img.height}
        loading={priority ? 'eager' : 'lazy'}
        decoding={priority ? 'sync' : 'async'}
        fetchPriority={priority ? 'high' : undefined}
      />
    </picture>
  );
}
