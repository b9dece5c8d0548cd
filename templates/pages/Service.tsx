import type { PageContext } from '../model/index.ts';
import { ContactButtons, PageIntro, Section, NextSteps, TierPriceLine } from '../components/Blocks.tsx';

/** A service page (dinner date, travel companion): what it is, what it includes, its rate. */
export function Service({ ctx }: { ctx: PageContext }) {
  const { t, site, route } = ctx;
  const id = route.page!.id;
  const card = site.data.services.cards.find((c) => c.page === id);
  const k = (key: string) => `service.${id}.${key}`;
  return (
    <main id="main" tabIndex={-1}>
      <div className="container">
        <PageIntro kicker={t('nav.services')} title={t(k('title'))} intro={t(k('intro'))} />
        {card && <TierPriceLine ctx={ctx} id={card.tier} from />}
        <ContactButtons ctx={ctx} context={`service-${id}`} />
      </div>
      <Section id="details" title={t(k('detailsTitle'))}>
        <ul className="checks">
          {(['1', '2', '3', '4'] as const).map((n) => (
            <li key={n}>{t(k(`point${n}`))}</li>
          ))}
        </ul>
      </Section>
      <Section id="planning" title={t(k('planningTitle'))}>
        <p>{t(k('planning'))}</p>
        <NextSteps ctx={ctx} rates />
      </Section>
    </main>
  );
}
