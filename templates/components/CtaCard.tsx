import type { PageContext } from '../../src/render/context.ts';
import { displayPhone, whatsappHref } from './Blocks.tsx';

/**
 * The floating call-to-action card. It renders the default variant; the client script swaps in
 * the chosen variant's texts (from the page's client data, never from code).
 */
export function CtaCard({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  const v = site.cta.variants.find((x) => x.id === site.cta.defaultVariant) ?? site.cta.variants[0]!;
  return (
    <aside className="cta-card" aria-labelledby="cta-title" data-cta>
      <p className="cta-urgency" data-cta-urgency hidden>
        {t(`cta.${v.id}.urgency`)}
      </p>
      <p id="cta-title" className="cta-primary">
        <span aria-hidden="true" data-cta-icon>
          {v.icon}
        </span>{' '}
        <span data-cta-primary>{t(`cta.${v.id}.primary`)}</span>
      </p>
      <p className="cta-secondary" data-cta-secondary>
        {t(`cta.${v.id}.secondary`)}
      </p>
      <p className="cta-valued" data-cta-valued hidden>
        {t('cta.valued')}
      </p>
      <div className="button-row">
        <a className="button button-primary" href={whatsappHref(ctx)} target="_blank" rel="noopener noreferrer" data-whatsapp="cta">
          {t('contact.whatsapp')}
          <span className="visually-hidden"> {t('nav.newTab')}</span>
        </a>
        <a className="button" href={`tel:${site.config.contact.phone.replace(/\s+/g, '')}`} data-call="cta">
          {displayPhone(t('cta.call'))}
        </a>
      </div>
    </aside>
  );
}
