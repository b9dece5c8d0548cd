import type { PageContext } from '../../src/render/context.ts';

interface Props {
  ctx: PageContext;
  file: string;
  alt: string;
  /** Above the fold: load eagerly with high priority (the LCP image). */
  priority?: boolean;
  sizes?: string;
  className?: string;
}

/** A content image with its modern sources, intrinsic size and lazy loading below the fold. */
export function Picture({ ctx, file, alt, priority, sizes = '100vw', className }: Props) {
  const img = ctx.assets.image(file);
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
