import type { PageContext } from '../model/index.ts';

/** A redirect stub: the forward script and the canonical do the work; the link is the fallback. */
export function Redirect({ ctx }: { ctx: PageContext }) {
  return (
    <main>
      <p>
        {ctx.t('redirect.text')} <a href={ctx.url(ctx.route.target!)}>{ctx.t('redirect.link')}</a>
      </p>
    </main>
  );
}

/** A landing page (a model's landings): forwards like a redirect. */
export function Landing({ ctx }: { ctx: PageContext }) {
  return (
    <main>
      <p>
        <a href={ctx.url(ctx.route.target!)}>{ctx.t('landing.continue')}</a>
      </p>
    </main>
  );
}
