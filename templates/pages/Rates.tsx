import type { PageContext } from '../model/index.ts';
import { PageIntro, price, Section, ServiceRules, NextSteps, tierOf } from '../components/Blocks.tsx';

/** A tier's price on the list: the amount (with "from" as flagged) and "on request" on a line of its own. */
function RatePrice({ ctx, id }: { ctx: PageContext; id: string }) {
  const tier = tierOf(ctx, id);
  return (
    <p className="price">
      <strong className="price-amount nowrap">{price(ctx, tier.price, { from: tier.from })}</strong>
      {tier.onRequest && <span className="price-note">{ctx.t('price.onRequest')}</span>}
    </p>
  );
}

/** Rates: a calm price list (one row per tier: name with its quiet tier label, duration, price), extras, service rules. */
export function Rates({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  return (
    <main id="main" tabIndex={-1}>
      <div className="container">
        <PageIntro title={t('rates.title')} intro={t('rates.intro')} />
        <ol className="price-list rates">
          {site.data.rates.tiers.map((tier) => (
            <li key={tier.id} className="rate price-row" id={`rate-${tier.id}`}>
              <div className="rate-name">
                <span className="badge">{t(`badge.${tier.badge}`)}</span>
                <h2>{t(`rates.tier.${tier.id}.name`)}</h2>
                <p className="rate-desc">{t(`rates.tier.${tier.id}.description`)}</p>
              </div>
              <p className="muted rate-duration nowrap">{t(`duration.${tier.duration}`)}</p>
              <RatePrice ctx={ctx} id={tier.id} />
            </li>
          ))}
        </ol>
      </div>
      <Section id="extras" title={t('rates.extrasTitle')}>
        <ul className="price-list extras">
          {site.data.rates.extras.map((x) => (
            <li key={x.id} className="price-row">
              <div className="rate-name">
                <h3>{t(`rates.extra.${x.id}.name`)}</h3>
                <p className="rate-desc">{t(`rates.extra.${x.id}.note`)}</p>
              </div>
              <p className="muted rate-duration nowrap">{t(`duration.${x.duration}`)}</p>
              <p className="price">
                <strong className="price-amount nowrap">{price(ctx, x.price)}</strong>
              </p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="rules" title={t('rules.title')}>
        <ServiceRules ctx={ctx} />
        <NextSteps ctx={ctx} />
      </Section>
    </main>
  );
}
