import type { PageContext } from '../model/index.ts';
import { ContactButtons, PageIntro, Parts, Section, Venues } from '../components/Blocks.tsx';

/** Contact: WhatsApp, phone, Instagram, availability, areas, 3 steps, venues, privacy. */
export function Contact({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  return (
    <main id="main" tabIndex={-1}>
      <div className="container">
        <PageIntro title={t('contact.title')} intro={t('contact.intro')} />
        <ContactButtons ctx={ctx} context="contact" />
        <p>
          {Object.entries(site.config.social).map(([id, url]) => (
            <a key={id} href={url} rel="noopener noreferrer" target="_blank" className="text-link">
              {t(`social.${id}`)}
              <span className="visually-hidden"> {t('nav.newTab')}</span>
            </a>
          ))}
        </p>
      </div>
      <Section id="availability" title={t('contact.availability.title')}>
        <dl className="facts">
          <dt>{t('contact.availability.weekdaysLabel')}</dt>
          <dd>{t('contact.availability.weekdays')}</dd>
          <dt>{t('contact.availability.weekendLabel')}</dt>
          <dd>{t('contact.availability.weekend')}</dd>
        </dl>
        <p>{t('rules.emergency')}</p>
      </Section>
      <Section id="areas" title={t('contact.areas.title')}>
        <ul className="cards">
          {site.data.cities.map((c) => (
            <li key={c.id} className="card">
              <h3>
                <a href={ctx.link(c.id)}>{t(`city.${c.id}.name`)}</a>
              </h3>
              {c.status === 'upcoming' && <p className="badge">{t('city.upcoming')}</p>}
              {c.areas.length > 0 && (
                <p>
                  <Parts parts={c.areas.map((a) => t(`city.${c.id}.area.${a}`))} />
                </p>
              )}
            </li>
          ))}
        </ul>
      </Section>
      <Section id="process" title={t('contact.process.title')}>
        <ol className="steps">
          {(['1', '2', '3'] as const).map((n) => (
            <li key={n}>
              <strong>{t(`contact.process.step${n}.title`)}</strong> {t(`contact.process.step${n}.text`, { minutes: site.data.booking.confirmationMinutes, hours: site.data.booking.minAdvanceHours })}
            </li>
          ))}
        </ol>
      </Section>
      <Section id="contact" title={t('venues.title')}>
        <Venues ctx={ctx} />
      </Section>
      <Section id="privacy" title={t('contact.privacy.title')}>
        <ul className="checks">
          {(['data', 'messages', 'discretion'] as const).map((id) => (
            <li key={id}>{t(`contact.privacy.${id}`)}</li>
          ))}
        </ul>
      </Section>
    </main>
  );
}
