import type { PageContext } from '../model/index.ts';
import { PageIntro } from '../components/Blocks.tsx';

const SECTIONS = {
  privacy: ['controller', 'stored', 'analytics', 'whatsapp', 'basis', 'consent', 'rights', 'authority'],
  legal: ['operator', 'purpose', 'adults', 'liability', 'law'],
} as const;

/**
 * Listed items of a section, texts under `<page>.<section>.items.<id>`. The privacy policy lists what
 * is stored (client/keys.ts), the legal basis per purpose and every GDPR right (Art. 15-22, 7(3), 77).
 */
const ITEMS: Readonly<Record<string, readonly string[]>> = {
  'privacy.stored': ['language', 'consent', 'dismissed', 'attribution', 'returning', 'visit', 'offline'],
  'privacy.basis': ['language', 'consent', 'attribution', 'returning', 'analytics', 'booking'],
  'privacy.rights': ['access', 'rectification', 'erasure', 'restriction', 'portability', 'objection', 'withdrawal', 'complaint'],
};

/** Privacy policy and legal notice: section texts from the tables, operator facts from data/legal.yaml. */
export function Legal({ ctx }: { ctx: PageContext }) {
  const { t, site, route } = ctx;
  const id = route.page!.id as keyof typeof SECTIONS;
  const l = site.data.legal;
  const provider = site.config.analytics.provider;
  const processor = provider === 'none' ? undefined : l.processors[provider];
  const vars = {
    operator: l.operator,
    taxId: l.taxId,
    address: l.address,
    email: l.email,
    jurisdiction: l.jurisdiction,
    brand: site.config.brand,
    domain: new URL(site.config.baseUrl).host,
    days: site.data.tracking.attributionDays,
    prefix: site.config.storageKey,
    processor: processor?.name ?? '',
  };
  // Country names in the page's language (the authorities' own names stay as data gives them).
  const country = new Intl.DisplayNames([t('lang.locale')], { type: 'region' });
  return (
    <main id="main" tabIndex={-1}>
      <article className="container narrow prose">
        <PageIntro title={t(`page.${id}.title`)} intro={t(`${id}.intro`, vars)} />
        {SECTIONS[id].map((s) => (
          <section key={s} id={s} aria-labelledby={`section-${s}-title`}>
            <h2 id={`section-${s}-title`}>{t(`${id}.${s}.title`)}</h2>
            {/* Analytics: what is sent and to whom depends on the configured provider. */}
            <p>{t(s === 'analytics' && !processor ? `${id}.${s}.none` : `${id}.${s}.text`, vars)}</p>
            {ITEMS[`${id}.${s}`] && (
              <ul>
                {ITEMS[`${id}.${s}`]!.map((item) => (
                  <li key={item} data-item={item}>
                    {t(`${id}.${s}.items.${item}`, vars)}
                  </li>
                ))}
              </ul>
            )}
            {s === 'analytics' && processor && (
              <p>
                <a href={processor.url} rel="noopener">
                  {t('privacy.analytics.policy', vars)}
                </a>
              </p>
            )}
            {s === 'authority' && (
              <ul>
                {l.authorities.map((a) => (
                  <li key={a.country} data-authority={a.country}>
                    <a href={a.url} rel="noopener">{a.name}</a>, {country.of(a.country)}
                  </li>
                ))}
                <li data-authority="list">
                  <a href={l.authoritiesList} rel="noopener">
                    {t('privacy.authority.list')}
                  </a>
                </li>
              </ul>
            )}
            {s === 'consent' && site.config.features.consent && (
              <p>
                <button type="button" className="button" data-consent-open data-js-only>
                  {t('footer.cookies')}
                </button>
              </p>
            )}
          </section>
        ))}
        <p className="muted">
          {/* The date kept on one line (no break between day, month and year). */}
          {t('legal.updated', { date: ctx.format.date(l.updated[id]).replace(/ /g, '\u00a0') })}
        </p>
      </article>
    </main>
  );
}
