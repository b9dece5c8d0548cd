import type { PageContext } from '../model/index.ts';
import type { ReactNode } from 'react';
import { ContactButtons, displayPhone, PageIntro, ServiceRules, tierOf, tierPrice } from '../components/Blocks.tsx';

/** The form's validation and status texts (`booking.error.<key>`), read by the client script. */
const FORM_TEXTS = ['required', 'invalidEmail', 'invalidPhone', 'tooSoon', 'invalidDate', 'summary', 'blocked'] as const;

/**
 * The booking request form. It never posts anywhere: the client script validates it and hands
 * it to WhatsApp. Without JavaScript the no-script stylesheet hides it and direct contact is offered.
 */
export function Booking({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  // No city is preselected: the visitor chooses one (an empty first choice, as a required select
  // must have), or comes from a city's page with ?city=<id>, which the client selects. Until then
  // the 3-hour rule and the date field run on the first active city's clock.
  const fallback = site.data.cities.find((c) => c.status === 'active') ?? site.data.cities[0]!;
  const upcoming = site.data.cities.filter((c) => c.status === 'upcoming');
  // Validation and status texts travel with the form (data-texts), not in every page's site data.
  const texts = Object.fromEntries(FORM_TEXTS.map((k) => [k, t(`booking.error.${k}`, { hours: site.data.booking.minAdvanceHours, phone: site.config.contact.phone })]));
  const zoneLine = (c: typeof fallback) => t('booking.timezone', { city: t(`city.${c.id}.name`), cityId: c.id, zone: c.timezone });
  const field = (id: string, input: ReactNode, hint?: string) => (
    <div className="field" data-field={id}>
      <label htmlFor={`booking-${id}`}>
        {t(`booking.field.${id}`)}
        {['city', 'name', 'date', 'time', 'duration', 'location'].includes(id) && <span className="required"> ({t('booking.required')})</span>}
      </label>
      {hint && (
        <p className="hint" id={`booking-${id}-hint`}>
          {hint}
        </p>
      )}
      {input}
      <p className="field-error" id={`booking-${id}-error`} hidden />
    </div>
  );
  return (
    <main id="main" tabIndex={-1}>
      <div className="container narrow">
        <PageIntro title={t('booking.title')} intro={t('booking.intro')} />
        {/* The form and the direct links share one slot: the links show until the script has taken
            the form over (blocked, failed or crashed: the links stay), and the form only then, so
            no personal data can be sent by a form the script does not handle. Both take their
            place from the first paint (visibility, not display): nothing moves when they swap. */}
        <div className="booking-slot" data-booking-slot>
        <div className="card notice" data-booking-fallback>
          <h2>{t('booking.noscript.title')}</h2>
          <p>{t('booking.noscript.text')}</p>
          <ContactButtons ctx={ctx} context="booking-noscript" />
        </div>
        <form className="booking-form" data-booking data-js-only method="post" noValidate aria-describedby="booking-timezone" data-timezone={fallback.timezone} data-min-hours={site.data.booking.minAdvanceHours} data-texts={JSON.stringify(texts)}>
          {field(
            'city',
            <select id="booking-city" name="city" required defaultValue="" aria-describedby="booking-timezone">
              <option value="" disabled>
                {t('booking.choose')}
              </option>
              {site.data.cities.map((c) => (
                <option key={c.id} value={c.id} data-timezone={c.timezone} data-zone-line={zoneLine(c)}>
                  {c.status === 'upcoming' ? t('booking.cityUpcoming', { city: t(`city.${c.id}.name`) }) : t(`city.${c.id}.name`)}
                </option>
              ))}
            </select>,
          )}
          {/* What the chosen city brings, read out when it changes: its time zone and, for a city
              that is coming soon, a note saying so (from its page's link too). */}
          <div className="city-notes" aria-live="polite">
            <p id="booking-timezone" className="hint" data-zone-text>
              {t('booking.timezoneAny')}
            </p>
            {upcoming.map((c) => (
              <p key={c.id} className="form-note" data-upcoming={c.id} hidden>
                {t('booking.upcoming', { city: t(`city.${c.id}.name`), cityId: c.id })}
              </p>
            ))}
          </div>
          {field('name', <input id="booking-name" name="name" type="text" autoComplete="given-name" required placeholder={t('booking.placeholder.name')} maxLength={60} />)}
          {field('phone', <input id="booking-phone" name="phone" type="tel" autoComplete="tel" placeholder={t('booking.placeholder.phone')} maxLength={30} />)}
          {field('email', <input id="booking-email" name="email" type="email" autoComplete="email" placeholder={t('booking.placeholder.email')} maxLength={120} />)}
          <div className="field-row">
            {field('date', <input id="booking-date" name="date" type="date" required />)}
            {field('time', <input id="booking-time" name="time" type="time" required step={900} />)}
          </div>
          {field(
            'duration',
            <select id="booking-duration" name="duration" required defaultValue="">
              <option value="" disabled>
                {t('booking.choose')}
              </option>
              {site.data.booking.durations.map((d) => (
                <option key={d.id} value={d.id} data-price={tierOf(ctx, d.tier).price ?? ''}>
                  {t(`booking.duration.${d.id}`)} · {tierOf(ctx, d.tier).onRequest ? t('price.onRequest') : tierPrice(ctx, d.tier)}
                </option>
              ))}
            </select>,
          )}
          {field(
            'location',
            <select id="booking-location" name="location" required defaultValue="">
              <option value="" disabled>
                {t('booking.choose')}
              </option>
              {site.data.booking.locations.map((l) => (
                <option key={l} value={l}>
                  {t(`booking.location.${l}`)}
                </option>
              ))}
            </select>,
          )}
          {field('message', <textarea id="booking-message" name="message" rows={4} maxLength={500} placeholder={t('booking.placeholder.message')} />)}
          <p className="form-status" role="alert" data-form-status hidden />
          <button type="submit" className="button button-primary" data-submit>
            <span className="spinner" aria-hidden="true" hidden data-spinner />
            {t('booking.submit')}
          </button>
        </form>
        </div>
        <div className="card success" data-booking-success hidden tabIndex={-1}>
          <h2>{t('booking.success.title')}</h2>
          <p>{t('booking.success.text')}</p>
          <p>{t('booking.success.phone', { phone: displayPhone(site.config.contact.phone) })}</p>
        </div>
        <h2>{t('rules.title')}</h2>
        <ServiceRules ctx={ctx} />
      </div>
    </main>
  );
}
