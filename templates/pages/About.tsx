import type { PageContext } from '../model/index.ts';
import { PageIntro, Section, NextSteps } from '../components/Blocks.tsx';
import { Picture } from '../components/Picture.tsx';

/** About / profile: philosophy, services, clients, languages, standards, health certification. */
export function About({ ctx }: { ctx: PageContext }) {
  const { t, site } = ctx;
  const portrait = site.data.gallery.portraits[0];
  return (
    <main id="main" tabIndex={-1}>
      <div className="container about-head">
        <PageIntro title={t('about.title', { name: site.config.provider.name })} intro={t('about.intro')} />
        {portrait && <Picture ctx={ctx} file={portrait.file} alt={t('gallery.portraitAlt')} priority className="about-portrait" sizes="(min-width: 900px) 30vw, (min-width: 640px) 40vw, 100vw" />}
      </div>
      {(['philosophy', 'services', 'clients'] as const).map((id) => (
        <Section key={id} id={id} title={t(`about.${id}.title`)}>
          <p>{t(`about.${id}.text`)}</p>
        </Section>
      ))}
      <Section id="languages" title={t('about.languages.title')}>
        <ul className="tags">
          {site.config.provider.languagesSpoken.map((code) => (
            <li key={code}>{t(`languageName.${code}`)}</li>
          ))}
        </ul>
      </Section>
      <Section id="standards" title={t('about.standards.title')}>
        <ul className="checks">
          {(['punctuality', 'discretion', 'presentation', 'respect'] as const).map((id) => (
            <li key={id}>{t(`about.standards.${id}`)}</li>
          ))}
        </ul>
      </Section>
      <Section id="health" title={t('about.health.title')}>
        <p>{t('about.health.text', { months: site.data.health.intervalMonths, date: ctx.format.date(site.data.health.lastUpdate) })}</p>
        {/* The way on follows the last text, not a section's spacing below it. */}
        <NextSteps ctx={ctx} rates />
      </Section>
    </main>
  );
}
