import type { GalleryImage, PageContext } from '../model/index.ts';
import { Picture } from './Picture.tsx';

function Carousel({ ctx, images, id, label, plain }: { ctx: PageContext; images: readonly GalleryImage[]; id: string; label: string; plain?: boolean }) {
  const { t } = ctx;
  const first = images[0];
  if (!first) return null;
  return (
    <div className="carousel" id={id} data-carousel={id} role="group" aria-roledescription={t('gallery.carousel')} aria-label={label}>
      <div className="carousel-stage">
        <ul className="carousel-slides">
          {images.map((img, i) => (
            <li key={img.id} className="carousel-slide" id={`${id}-${img.id}`} data-slide={i} hidden={i !== 0 ? true : undefined}>
              <figure>
                <Picture ctx={ctx} file={img.file} alt={t(`gallery.image.${img.id}.alt`)} plain={plain} sizes="(min-width: 900px) 800px, 100vw" />
                <figcaption>
                  <strong>{t(`gallery.image.${img.id}.title`)}</strong> {t(`gallery.image.${img.id}.description`)}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        <div className="carousel-controls">
          {/* The chevrons are drawn in CSS (issue 22: no Unicode glyphs as icons). */}
          <button type="button" className="icon-button" data-prev aria-label={t('gallery.previous')} data-js-only />
          <p className="carousel-counter" aria-live="polite" data-counter data-js-only data-template={t('gallery.counter', { n: '{n}', total: '{total}' })}>
            {t('gallery.counter', { n: 1, total: images.length })}
          </p>
          <button type="button" className="icon-button" data-next aria-label={t('gallery.next')} data-js-only />
        </div>
      </div>
      <p className="visually-hidden" id={`${id}-thumbs`}>
        {t('gallery.thumbnails')}
      </p>
      {/* A quarter of the carousel (at most 48rem): 480 px wide images are enough on any screen. */}
      <ul className="thumbs" aria-describedby={`${id}-thumbs`}>
        {images.map((img, i) => (
          <li key={img.id}>
            <a href={`#${id}-${img.id}`} className="thumb" data-thumb={i} aria-current={i === 0 ? 'true' : undefined}>
              <Picture ctx={ctx} file={img.file} alt={t('gallery.show', { title: t(`gallery.image.${img.id}.title`) })} plain={plain} sizes="25vw" maxWidth={480} />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Large image, arrows, 4-column thumbnails and counter; tabs only for 2+ categories with images. */
export function Gallery({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  const g = site.data.gallery;
  const withImages = g.categories.filter((c) => g.images.some((img) => img.category === c));
  return (
    <>
      {withImages.length >= 2 && (
        <nav className="tabs" aria-label={t('gallery.categories')}>
          <ul>
          {withImages.map((c) => (
            <li key={c}>
              <a href={`#gallery-${c}`}>{t(`gallery.category.${c}`)}</a>
            </li>
          ))}
          </ul>
        </nav>
      )}
      {withImages.map((c) => (
        <Carousel key={c} ctx={ctx} id={`gallery-${c}`} images={g.images.filter((img) => img.category === c)} label={t(`gallery.category.${c}`)} />
      ))}
      {/* The featured carousel exists but is hidden (spec): plain JPEGs, so the page does not
          carry some 0.6 KB (compressed) of source URLs for images nobody sees. */}
      <div hidden data-featured>
        <Carousel ctx={ctx} id="featured" images={g.featured} label={t('gallery.featured')} plain />
      </div>
    </>
  );
}
