import type { PageContext } from '../model/index.ts';

/** Brand, tagline, cities, disclaimer, 18+ notice, copyright, contact, social, privacy and legal links. */
export function Footer({ ctx }: { ctx: PageContext }) {
  // The same on every page of a language: rendered once per build and language.
  return <footer className="site-footer" dangerouslySetInnerHTML={{ __html: ctx.once('footer', () => <FooterContent ctx={ctx} />) }} />;
}

function FooterContent({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  const year = site.today.slice(0, 4);
  return (
    <>
      <div className="container footer-grid">
        <div>
          <p className="footer-brand">{site.config.brand}</p>
          <p>{t('footer.tagline')}</p>
          {site.config.features.footerSubtitle && <p className="footer-subtitle">{t('footer.subtitle')}</p>}
        </div>
        <div>
          <h2 className="footer-heading">{t('footer.cities')}</h2>
          <ul className="plain-list">
            {site.data.cities.map((c) => (
              <li key={c.id}>
                <a href={ctx.link(c.id)}>{t(`city.${c.id}.name`)}</a>
                {c.status === 'upcoming' && <span className="muted"> · {t('city.upcoming')}</span>}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="footer-heading">{t('footer.info')}</h2>
          <ul className="plain-list">
            <li>
              <a href={ctx.link('contact')}>{t('footer.contact')}</a>
            </li>
            {Object.entries(site.config.social).map(([id, url]) => (
              <li key={id}>
                <a href={url} rel="me noopener noreferrer" target="_blank">
                  {t(`social.${id}`)}
                  <span className="visually-hidden"> {t('nav.newTab')}</span>
                </a>
              </li>
            ))}
            <li>
              <a href={ctx.link('privacy')}>{t('footer.privacy')}</a>
            </li>
            <li>
              <a href={ctx.link('legal')}>{t('footer.legal')}</a>
            </li>
            <li>
              <a href={`${ctx.link('privacy')}#consent`} data-consent-open>
                {t('footer.cookies')}
              </a>
            </li>
          </ul>
        </div>
      </div>
      {/* The divider spans the grid's columns, not the gutters (it was wider than the text). */}
      <div className="container">
        <div className="footer-notes">
          <p>{t('footer.disclaimer')}</p>
          <p>
            <strong className="age-badge">18+</strong> {t('footer.adults')}
          </p>
          <p>
            {t('footer.copyright', { year, brand: site.config.brand })} · {t('footer.madeWith')}
          </p>
        </div>
      </div>
    </>
  );
}
