import type { PageContext } from '../model/index.ts';
import { cityOf } from '../model/helpers.ts';
import { ContactButtons, PageIntro, Section, ServiceRules, NextSteps } from '../components/Blocks.tsx';
import { Picture } from '../components/Picture.tsx';

/** City landing page: areas served, or the launch timeline for an upcoming city. */
export function City({ ctx }: { ctx: PageContext }) {
  const { t, site, route } = ctx;
  const city = cityOf(route)!;
  const image = city.image ? [...site.data.gallery.images, ...site.data.gallery.featured].find((i) => i.id === city.image) : undefined;
  const k = (key: string) => `city.${city.id}.${key}`;
  // A milestone whose date has passed is left out, never shown as upcoming: whether it happened is
  // the operator's to say (the build warns until the timeline is updated).
  const upcoming = city.timeline.filter((m) => m.due >= site.today);
  return (
    <main id="main" tabIndex={-1} data-city={city.id}>
      <div className="container">
        <PageIntro kicker={city.status === 'upcoming' ? t('city.upcoming') : t('city.available')} title={t(k('title'))} intro={t(k('intro'))} />
        <ContactButtons ctx={ctx} context={`city-${city.id}`} />
        {/* In the first screen on phones and usually the largest element: loaded with priority. */}
        {image && <Picture ctx={ctx} file={image.file} alt={t(`gallery.image.${image.id}.alt`)} priority className="city-image" sizes="(min-width: 1100px) 1040px, 100vw" />}
      </div>
      {city.areas.length > 0 && (
        <Section id="areas" title={t('city.areasTitle', { city: t(k('name')), cityId: city.id })}>
          <ul className="cards">
            {city.areas.map((a) => (
              <li key={a} className="card">
                <h3>{t(k(`area.${a}`))}</h3>
                <p>{t(k(`areaText.${a}`))}</p>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {upcoming.length > 0 && (
        <Section id="timeline" title={t('city.timelineTitle')}>
          <ol className="timeline">
            {upcoming.map((m) => (
              <li key={m.id}>
                <strong className="nowrap">{when(ctx, m)}</strong> {t(k(`timeline.${m.id}`))}
              </li>
            ))}
          </ol>
        </Section>
      )}
      <Section id="experience" title={t(k('experienceTitle'))}>
        <p>{t(k('experience'))}</p>
      </Section>
      <Section id="rules" title={t('rules.title')}>
        <ServiceRules ctx={ctx} />
        <NextSteps ctx={ctx} rates />
      </Section>
    </main>
  );
}

/** A milestone's date as the content gives it: a quarter, a month or a day, or a range from `due` to `until`. */
export function when(ctx: PageContext, m: { due: string; show: 'quarter' | 'month' | 'day'; until?: string }): string {
  if (m.until && m.show !== 'quarter') return ctx.format.range(m.due, m.until, m.show);
  return m.show === 'day' ? ctx.format.date(m.due) : m.show === 'month' ? ctx.format.month(m.due) : ctx.format.quarter(m.due);
}
