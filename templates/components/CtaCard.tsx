import type { PageContext } from '../model/index.ts';
import { whatsappHref } from './Blocks.tsx';

/** The close button of the card and the bar: script only (without it there is nothing to remember). */
function Dismiss({ ctx }: { ctx: PageContext }) {
  return (
    <button type="button" className="cta-dismiss" data-cta-dismiss data-js-only aria-label={ctx.t('cta.dismiss')}>
      <span className="close-icon" aria-hidden="true" />
    </button>
  );
}

/**
 * WhatsApp and call buttons, the same in the card and the bar; `context` names them for tracking.
 * `whatsapp` is the key of the WhatsApp label: the bar's is the short one, so it stays on one line at 320 px.
 */
function Actions({ ctx, tel, context, whatsapp = 'contact.whatsapp' }: { ctx: PageContext; tel: string; context: string; whatsapp?: string }) {
  const { t } = ctx;
  return (
    <>
      <a className="button button-primary" href={whatsappHref(ctx)} target="_blank" rel="noopener noreferrer" data-whatsapp={context}>
        {t(whatsapp)}
        <span className="visually-hidden"> {t('nav.newTab')}</span>
      </a>
      <a className="button" href={tel} data-call={context}>
        {t('cta.call')}
      </a>
    </>
  );
}

/**
 * The call to action: a card (in flow on narrow screens, floating in its own lane on wide ones) and a
 * compact sticky bar on phones and tablets. It renders the default variant; the client script swaps in
 * the chosen variant's texts (from the page's client data, never from code) and shows the urgency and
 * valued-customer lines in both. Dismissing hides both for the browser session.
 */
export function CtaCard({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  const v = site.data.cta.variants.find((x) => x.id === site.data.cta.defaultVariant) ?? site.data.cta.variants[0]!;
  const tel = `tel:${site.config.contact.phone.replace(/\s+/g, '')}`;
  return (
    <>
      <aside className="cta-card" aria-labelledby="cta-title" data-cta>
        <Dismiss ctx={ctx} />
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
          <Actions ctx={ctx} tel={tel} context="cta" />
        </div>
      </aside>
      <aside className="cta-bar" aria-label={t('cta.bar')} data-cta-bar>
        <p className="cta-bar-line">
          <span className="cta-urgency" data-cta-urgency hidden>
            {t(`cta.${v.id}.urgency`)}
          </span>
          <span data-cta-valued hidden>
            {t('cta.valued')}
          </span>
        </p>
        <Actions ctx={ctx} tel={tel} context="cta-bar" whatsapp="cta.whatsapp" />
        <Dismiss ctx={ctx} />
      </aside>
    </>
  );
}
