import type { PageContext } from '../model/index.ts';
import { PageIntro, price, Section, ServiceRules, NextSteps, tierPrice } from '../components/Blocks.tsx';

/** Rates: tiers with badges and duration labels, extras, service rules. */
export function Rates({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  return (
    <main id="main" tabIndex={-1}>
      <div className="container">
        <PageIntro title={t('rates.title')} intro={t('rates.intro')} />
        <ul className="cards rates">
          {site.data.rates.tiers.map((tier) => (
            <li key={tier.id} className="card rate" id={`rate-${tier.id}`}>
              <span className="badge">{t(`badge.${tier.badge}`)}</span>
              <h2>{t(`rates.tier.${tier.id}.name`)}</h2>
              <p className="price">
                <strong className="price-amount">{tierPrice(ctx, tier.id)}</strong>
              </p>
              <p className="muted">{t(`duration.${tier.duration}`)}</p>
              <p>{t(`rates.tier.${tier.id}.description`)}</p>
            </li>
          ))}
        </ul>
      </div>
      <Section id="extras" title={t('rates.extrasTitle')}>
        <ul className="cards extras">
          {site.data.rates.extras.map((x) => (
            <li key={x.id} className="card">
              <h3>{t(`rates.extra.${x.id}.name`)}</h3>
              <p className="price">
                <strong className="price-amount">{price(ctx, x.price)}</strong> <span className="muted">{t(`duration.${x.duration}`)}</span>
              </p>
              <p>{t(`rates.extra.${x.id}.note`)}</p>
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
