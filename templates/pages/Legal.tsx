import type { PageContext } from '../../src/render/context.ts';
import { PageIntro } from '../components/Blocks.tsx';

const SECTIONS = {
  privacy: ['controller', 'stored', 'whatsapp', 'analytics', 'consent', 'rights'],
  legal: ['operator', 'purpose', 'adults', 'liability', 'law'],
} as const;

/** Privacy policy and legal notice: section texts from the tables, operator facts from data/legal.yaml. */
export function Legal({ ctx }: { ctx: PageContext }) {
  const { t, site, route } = ctx;
  const id = route.page!.id as keyof typeof SECTIONS;
  const l = site.legal;
  const vars = {
    operator: l.operator,
    taxId: l.taxId,
    address: l.address,
    email: l.email,
    jurisdiction: l.jurisdiction,
    brand: site.config.brand,
    domain: new URL(site.config.baseUrl).host,
    days: site.tracking.attributionDays,
  };
  return (
    <main id="main" tabIndex={-1}>
      <article className="container narrow prose">
        <PageIntro title={t(`page.${id}.title`)} intro={t(`${id}.intro`, vars)} />
        {SECTIONS[id].map((s) => (
          <section key={s} id={s} aria-labelledby={`section-${s}-title`}>
            <h2 id={`section-${s}-title`}>{t(`${id}.${s}.title`)}</h2>
            <p>{t(`${id}.${s}.text`, vars)}</p>
            {s === 'consent' && site.config.features.consent && (
              <p>
                <button type="button" className="button" data-consent-open data-js-only>
                  {t('footer.cookies')}
                </button>
              </p>
            )}
          </section>
        ))}
        <p className="muted">{t('legal.updated', { date: ctx.format.date(site.today) })}</p>
      </article>
    </main>
  );
}
