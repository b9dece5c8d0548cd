import type { PageContext } from '../model/index.ts';

/**
 * The consent choice, first layer: Accept and Reject with equal weight, a link to the policy.
 * Hidden until the client script shows it (no script: nothing is stored or sent anyway). The
 * Document puts it first in the body, so it is the first stop in the focus order (R-BRAND-3),
 * though it is drawn at the bottom of the screen; one short paragraph keeps it within a third of
 * a small phone's screen.
 */
export function ConsentBanner({ ctx }: { ctx: PageContext }) {
  if (!ctx.site.config.features.consent) return null;
  // The same on every page of a language: rendered once per build and language.
  return <section className="consent" data-consent hidden aria-labelledby="consent-title" dangerouslySetInnerHTML={{ __html: ctx.once('consent', () => <ConsentContent ctx={ctx} />) }} />;
}

function ConsentContent({ ctx }: { ctx: PageContext }) {
  const { t } = ctx;
  return (
    <div className="container consent-inner">
      <h2 id="consent-title" className="visually-hidden">
        {t('consent.title')}
      </h2>
      <p>
        {t('consent.short')} <a href={ctx.link('privacy')}>{t('consent.policy')}</a> · <a href={ctx.link('legal')}>{t('footer.legal')}</a>
      </p>
      <div className="consent-actions">
        <button type="button" className="button" data-consent-choice="accept">
          {t('consent.accept')}
        </button>
        <button type="button" className="button" data-consent-choice="reject">
          {t('consent.reject')}
        </button>
      </div>
    </div>
  );
}
