import type { PageContext } from '../model/index.ts';
import { callLabel, displayPhone } from './Blocks.tsx';

const NAV = ['home', 'about', 'rates', 'booking', 'contact'] as const;

/**
 * The primary navigation, rendered once per language, current item and home-or-not (it differs
 * only in those), for both the desktop bar and the menu.
 */
function Nav({ ctx, anchor, onHome, ...attrs }: { ctx: PageContext; anchor: (id: string) => string; onHome: boolean; 'aria-label': string; className?: string }) {
  const hrefs = [...NAV.map((id) => ctx.link(id)), ctx.blogLink()];
  const current = hrefs.find((h) => h === ctx.url(ctx.route.path)) ?? '';
  return <nav {...attrs} dangerouslySetInnerHTML={{ __html: ctx.once(`nav:${onHome ? 'home' : ''}:${current}`, () => <NavList ctx={ctx} anchor={anchor} />) }} />;
}

function NavList({ ctx, anchor }: { ctx: PageContext; anchor: (id: string) => string }) {
  const { t, route } = ctx;
  const current = (href: string) => (href === ctx.url(route.path) ? 'page' : undefined);
  return (
    <ul className="nav-list">
      {NAV.map((id) => {
        const href = ctx.link(id);
        return (
          <li key={id}>
            <a href={href} aria-current={current(href)}>
              {t(`nav.${id}`)}
            </a>
          </li>
        );
      })}
      <li>
        <a href={ctx.blogLink()} aria-current={current(ctx.blogLink())}>
          {t('nav.blog')}
        </a>
      </li>
      <li>
        <a href={anchor('services')}>{t('nav.services')}</a>
      </li>
      <li>
        <a href={anchor('gallery')}>{t('nav.gallery')}</a>
      </li>
    </ul>
  );
}

function Tools({ ctx, inMenu }: { ctx: PageContext; inMenu?: boolean }) {
  const { t, site } = ctx;
  const tel = site.config.contact.phone.replace(/\s+/g, '');
  return (
    <div className="header-tools">
      <nav aria-label={inMenu ? t('nav.languageMobile') : t('nav.language')} className="lang-switch">
        <ul>
          {ctx.languageLinks.map((l) => (
            <li key={l.lang}>
              <a href={l.href} hrefLang={l.lang} lang={l.lang} aria-current={l.current ? 'true' : undefined} data-lang={l.lang}>
                {inMenu ? (
                  l.name
                ) : (
                  <>
                    {/* Compact in the desktop bar: the code shows, and the name is read after it (a
                        voice user says what is shown: WCAG 2.5.3). */}
                    {l.lang.toUpperCase()}
                    <span className="visually-hidden"> {l.name}</span>
                  </>
                )}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {Object.entries(site.config.social).map(([id, url]) => (
        <a key={id} className="header-link" href={url} rel="me noopener noreferrer" target="_blank">
          {t(`social.${id}`)}
          <span className="visually-hidden"> {t('nav.newTab')}</span>
        </a>
      ))}
      <a className="header-link phone-link" href={`tel:${tel}`}>
        {inMenu ? (
          callLabel(ctx, 'nav.call', site.config.contact.phone)
        ) : (
          <>
            <span className="visually-hidden">{displayPhone(`${t('nav.call', { phone: '' }).trim()} `)}</span>
            {displayPhone(site.config.contact.phone)}
          </>
        )}
      </a>
    </div>
  );
}

/** Logo, navigation (home anchors plain on home, `/#…` elsewhere), mobile menu, languages, social, phone. */
export function Header({ ctx }: { ctx: PageContext }) {
  const { t, site, route } = ctx;
  const onHome = route.page?.id === 'home';
  const home = ctx.link('home');
  const anchor = (id: string) => (onHome ? `#${id}` : `${home}#${id}`);
  return (
    <>
      <nav className="skip-links" aria-label={t('skip.label')}>
        <a href="#main">{t('skip.main')}</a>
        {/* Skip links only to targets on this page; elsewhere the navigation links to the home sections. */}
        {onHome && <a href="#services">{t('skip.services')}</a>}
        {onHome && <a href="#contact">{t('skip.contact')}</a>}
      </nav>
      <header className="site-header">
        <div className="container header-bar">
          <a className="logo" href={home} aria-label={t('nav.logoLabel', { brand: site.config.brand })}>
            {site.config.brand}
          </a>
          <Nav className="nav-desktop" aria-label={t('nav.primary')} ctx={ctx} anchor={anchor} onHome={onHome} />
          <details className="menu" data-menu>
            <summary className="menu-toggle" aria-label={t('nav.menu')}>
              <span className="menu-icon" aria-hidden="true" />
            </summary>
            <div className="menu-panel">
              <Nav aria-label={t('nav.primaryMobile')} ctx={ctx} anchor={anchor} onHome={onHome} />
              <Tools ctx={ctx} inMenu />
            </div>
          </details>
          <div className="header-tools-desktop">
            <Tools ctx={ctx} />
          </div>
        </div>
      </header>
    </>
  );
}
