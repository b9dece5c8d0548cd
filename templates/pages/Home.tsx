import type { PageContext } from '../model/index.ts';
import { ContactButtons, Section, ServiceRules, TierPriceLine, tierOf, Venues } from '../components/Blocks.tsx';
import { Picture } from '../components/Picture.tsx';
import { Gallery } from '../components/Gallery.tsx';
import { HealthCard } from '../components/Health.tsx';
import { CtaCard } from '../components/CtaCard.tsx';
import { Reviews } from '../components/Reviews.tsx';
import { RestOfStylesheet } from '../components/Stylesheet.tsx';

export function Home({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  const portrait = site.data.gallery.portraits[0];
  return (
    <main id="main" tabIndex={-1}>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-grid">
          <div className="hero-text">
            <p className="kicker">{t('hero.subtitle')}</p>
            <h1 id="hero-title">{t('hero.title')}</h1>
            <p className="lead">{t('hero.description')}</p>
            <div className="button-row">
              <a className="button button-primary" href="#services" data-scroll>
                {t('hero.services')}
              </a>
              <a className="button" href="#contact" data-scroll>
                {t('hero.contact')}
              </a>
            </div>
          </div>
          {portrait && <Picture ctx={ctx} file={portrait.file} alt={t('gallery.portraitAlt')} priority className="hero-image" sizes="(min-width: 900px) 40vw, 100vw" />}
        </div>
      </section>
      {/* The call to action has its own place below the hero (floating only where the margin holds it). */}
      <CtaCard ctx={ctx} />
      {/* The first screen ends here: what follows is styled by the whole stylesheet, loaded here. */}
      <RestOfStylesheet ctx={ctx} />

      <Section id="services" title={t('services.title')}>
        <p className="lead">{t('services.intro')}</p>
        <ul className="cards services">
          {site.data.services.cards.map((card) => {
            const tier = tierOf(ctx, card.tier);
            return (
              <li key={card.id} className="card service-card">
                {/* A quiet drawn mark, not the data's Unicode symbol (issue 22: no symbols as icons). */}
                <span className="card-icon" aria-hidden="true" data-icon={card.id} />
                <span className="badge">{t(`badge.${card.badge ?? tier.badge}`)}</span>
                <h3>{t(`services.card.${card.id}.title`)}</h3>
                <p>{t(`services.card.${card.id}.description`)}</p>
                <TierPriceLine ctx={ctx} id={card.tier} />
                {card.page && (
                  <a href={ctx.link(card.page)} className="text-link">
                    {t('services.more')}
                    <span className="visually-hidden">: {t(`services.card.${card.id}.title`)}</span>
                  </a>
                )}
              </li>
            );
          })}
        </ul>
        <div className="two-col">
          <div>
            <h3>{t('services.includedTitle')}</h3>
            <ul className="checks">
              {site.data.services.included.map((id) => (
                <li key={id}>{t(`services.included.${id}`)}</li>
              ))}
            </ul>
          </div>
          <div>
            <h3>{t('services.requirementsTitle')}</h3>
            <ServiceRules ctx={ctx} />
          </div>
        </div>
      </Section>

      <Section id="gallery" title={t('gallery.title')}>
        <p className="lead">{t('gallery.intro')}</p>
        <Gallery ctx={ctx} />
        <HealthCard ctx={ctx} />
      </Section>

      <Section id="reviews" title={t('reviews.title')}>
        <Reviews ctx={ctx} />
      </Section>

      <Section id="contact" title={t('venues.title')}>
        <p className="lead">{t('venues.description')}</p>
        <Venues ctx={ctx} />
        <ContactButtons ctx={ctx} context="home-contact" />
      </Section>
      <div data-sentinel aria-hidden="true" />
    </main>
  );
}
