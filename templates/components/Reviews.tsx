import type { PageContext } from '../model/index.ts';
import { aggregateRating } from '../structured-data.ts';

/** Reviews as testimonials; sample reviews are labelled as such and never marked up. */
export function Reviews({ ctx }: { ctx: PageContext }) {
  const { t, site, format } = ctx;
  const rating = aggregateRating(site.data.reviews);
  return (
    <>
      {rating && <p className="lead">{t('reviews.aggregate', { rating: rating.ratingValue, count: rating.reviewCount })}</p>}
      <ul className="cards reviews">
        {site.data.reviews.map((r) => (
          <li key={r.id} className="card review">
            {r.sample && <p className="badge badge-sample">{t('reviews.sample')}</p>}
            <p className="stars" role="img" aria-label={t('reviews.rating', { rating: r.rating })}>
              {'★'.repeat(Math.round(r.rating))}
            </p>
            <blockquote>
              <p>{r.sample ? t('reviews.sampleBody') : r.body}</p>
            </blockquote>
            <p className="muted">
              {r.sample ? t('reviews.sampleAuthor') : r.author} · {t(`city.${r.city}.name`)} · <time dateTime={r.date}>{format.date(r.date)}</time>
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
