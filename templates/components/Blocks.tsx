import { Fragment, type ReactNode } from 'react';
import type { PageContext, Venue } from '../model/index.ts';
import { cityOf } from '../model/helpers.ts';

/** Page heading block shared by inner pages. */
export function PageIntro({ title, intro, kicker }: { title: string; intro?: string; kicker?: string }) {
  return (
    <div className="page-intro">
      {kicker && <p className="kicker">{kicker}</p>}
      <h1>{title}</h1>
      {intro && <p className="lead">{intro}</p>}
    </div>
  );
}

/** A titled section with an id for anchors and skip links. */
export function Section({ id, title, children, className }: { id?: string; title: string; children: ReactNode; className?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section id={id} className={`section ${className ?? ''}`.trim()} aria-labelledby={headingId}>
      <div className="container">
        <h2 id={headingId}>{title}</h2>
        {children}
      </div>
    </section>
  );
}

/** Price of a rate or option in the page's language: "€250", "from €800", "on request". */
export function price(ctx: PageContext, amount: number | null, opts: { from?: boolean; onRequest?: boolean } = {}): string {
  if (amount === null) return ctx.t('price.onRequest');
  const p = ctx.format.price(amount);
  const text = opts.from ? ctx.t('price.from', { price: p }) : p;
  return opts.onRequest ? `${text} · ${ctx.t('price.onRequest')}` : text;
}

/**
 * Parts of a line ("from €2,000", "On request"; or a city's areas) joined by " · ", breaking only
 * after a "·": never inside a part ("desde / 800 €", "3– / 4 h", "Monaco- / Ville") nor before a lone "·".
 */
export function Parts({ parts, first }: { parts: string[]; first?: boolean }) {
  return parts.map((part, i) => (
    <Fragment key={i}>
      {(i > 0 || first) && '\u00a0· '}
      <span className="nowrap">{part}</span>
    </Fragment>
  ));
}

/** A rate tier of data/rates.yaml by id (references are checked when the content loads). */
export function tierOf(ctx: PageContext, id: string): PageContext['site']['data']['rates']['tiers'][number] {
  return ctx.site.data.rates.tiers.find((t) => t.id === id)!;
}

/**
 * A tier's price wherever it is shown (rates page, cards, service pages): "from" and "on request"
 * as the tier says (or "from" always, with `from`), so one tier reads the same everywhere.
 */
export function tierPrice(ctx: PageContext, id: string, opts: { from?: boolean } = {}): string {
  const tier = tierOf(ctx, id);
  return price(ctx, tier.price, { from: opts.from ?? tier.from, onRequest: tier.onRequest });
}

/**
 * A tier's price line on a service card or page: the amount on its own line, never broken
 * ("from €2,000"), then its duration and "on request" below it, quieter. Side by side, a narrow card
 * broke the line between a price and its unit ("€2,000 · On request · / per day").
 */
export function TierPriceLine({ ctx, id, from }: { ctx: PageContext; id: string; from?: boolean }) {
  const tier = tierOf(ctx, id);
  const note = [ctx.t(`duration.${tier.duration}`)];
  if (tier.onRequest && tier.price !== null) note.push(ctx.t('price.onRequest'));
  return (
    <p className="price price-line">
      <strong className="price-amount nowrap">{price(ctx, tier.price, { from: from ?? tier.from })}</strong>{' '}
      <span className="price-note">
        <Parts parts={note} />
      </span>
    </p>
  );
}

/** The service rules stated everywhere bookings are discussed. */
export function ServiceRules({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  return (
    <ul className="rules">
      <li>{t('rules.advance', { hours: site.data.booking.minAdvanceHours })}</li>
      <li>{t('rules.verification')}</li>
      <li>{t('rules.respect')}</li>
      <li>{t('rules.adults')}</li>
      <li>{t('rules.emergency')}</li>
      <li>{t('rules.confirmation', { minutes: site.data.booking.confirmationMinutes })}</li>
    </ul>
  );
}

function venuePrice(ctx: PageContext, v: Venue): string {
  if (typeof v.price === 'string') return ctx.t(`venue.price.${v.price}`);
  return ctx.t('venue.priceRange', { min: ctx.format.price(v.price.min), max: ctx.format.price(v.price.max) });
}

/** The venues list: name, price badge, description, address, phone, optional email, features. */
export function Venues({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  return (
    <ul className="cards venues">
      {site.data.venues.map((v) => (
        <li key={v.id} className="card venue">
          <div className="card-head">
            <h3>{v.name}</h3>
            <span className="badge">{venuePrice(ctx, v)}</span>
          </div>
          <p>{t(`venue.${v.id}.description`)}</p>
          <dl className="facts">
            <dt>{t('venue.address')}</dt>
            <dd>{v.address}</dd>
            <dt>{t('venue.phone')}</dt>
            <dd>
              <a href={`tel:${v.phone.replace(/\s+/g, '')}`}>{displayPhone(v.phone)}</a>
            </dd>
            {v.email && (
              <>
                <dt>{t('venue.email')}</dt>
                <dd>
                  {/* A narrow card breaks a long address after the "@", not inside the domain. */}
                  <a href={`mailto:${v.email}`}>
                    {v.email.split('@')[0]}@<wbr />
                    {v.email.split('@').slice(1).join('@')}
                  </a>
                </dd>
              </>
            )}
          </dl>
          <h4 className="visually-hidden">{t('venue.features')}</h4>
          <ul className="tags">
            {v.features.map((f) => (
              <li key={f}>{t(`venue.feature.${f}`)}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

/** Text of a phone link: non-breaking spaces keep the number (and its label) on one line. */
export function displayPhone(phone: string): string {
  return phone.replace(/ /g, '\u00a0');
}

/**
 * "Call +34 600 000 000" as link text: no ordinary space anywhere (a number must not break, and
 * html-validate's tel-non-breaking asks the same of the whole link), yet on a narrow screen the
 * line may break between the words and the number, at a <wbr>.
 */
export function callLabel(ctx: PageContext, key: string, phone: string): ReactNode {
  const MARK = '\uE000';
  const [before = '', after = ''] = ctx.t(key, { phone: MARK }).split(MARK);
  return (
    <>
      {displayPhone(before)}
      <wbr />
      {displayPhone(phone)}
      {displayPhone(after)}
    </>
  );
}

/** WhatsApp chat link; the client replaces `text` with the message builder's output. */
export function whatsappHref(ctx: PageContext, text?: string): string {
  const digits = ctx.site.config.contact.whatsapp.replace(/\D/g, '');
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
}

/** Direct contact buttons: WhatsApp (new tab) and phone (same tab). */
export function ContactButtons({ ctx, context }: { ctx: PageContext; context: string }) {
  const { t, site } = ctx;
  return (
    <div className="button-row">
      <a className="button button-primary" href={whatsappHref(ctx)} target="_blank" rel="noopener noreferrer" data-whatsapp={context}>
        {t('contact.whatsapp')}
        <span className="visually-hidden"> {t('nav.newTab')}</span>
      </a>
      <a className="button" href={`tel:${site.config.contact.phone.replace(/\s+/g, '')}`} data-call={context}>
        {callLabel(ctx, 'contact.call', site.config.contact.phone)}
      </a>
    </div>
  );
}

/** The booking page; from a city's page with `?city=<id>`, so the form preselects that city. */
export function bookingHref(ctx: PageContext): string {
  const city = cityOf(ctx.route);
  return city ? `${ctx.link('booking')}?city=${encodeURIComponent(city.id)}` : ctx.link('booking');
}

/** The way on from an inner page: request a booking (and see the rates). */
export function NextSteps({ ctx, rates }: { ctx: PageContext; rates?: boolean }) {
  const { t } = ctx;
  return (
    <p className="button-row">
      <a className="button button-primary" href={bookingHref(ctx)}>
        {t('cta.book')}
      </a>
      {rates && (
        <a className="button" href={ctx.link('rates')}>
          {t('nav.rates')}
        </a>
      )}
    </p>
  );
}
