import type { PageContext } from '../../src/render/context.ts';
import { ContactButtons, PageIntro, Section, ServiceRules, NextSteps } from '../components/Blocks.tsx';

/** City landing page: areas served, or the launch timeline for an upcoming city. */
export function City({ ctx }: { ctx: PageContext }) {
  const { t, site, route } = ctx;
  const city = site.cities.find((c) => c.page === route.page?.id)!;
  const k = (key: string) => `city.${city.id}.${key}`;
  return (
    <main id="main" tabIndex={-1} data-city={city.id}>
      <div className="container">
        <PageIntro kicker={city.status === 'upcoming' ? t('city.upcoming') : t('city.available')} title={t(k('title'))} intro={t(k('intro'))} />
        <ContactButtons ctx={ctx} context={`city-${city.id}`} />
      </div>
      {city.areas.length > 0 && (
        <Section id="areas" title={t('city.areasTitle', { city: t(k('name')) })}>
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
      {city.timeline.length > 0 && (
        <Section id="timeline" title={t('city.timelineTitle')}>
          <ol className="timeline">
            {city.timeline.map((m) => (
              <li key={m.id}>
                <strong>{ctx.format.quarter(m.due)}</strong> {t(k(`timeline.${m.id}`))}
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
