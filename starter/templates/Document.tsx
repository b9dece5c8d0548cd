import type { ReactNode } from 'react';
import { contentSecurityPolicy } from '@site/api';
import type { PageContext } from './model/index.ts';

/** The whole HTML document: head metadata for every route, a header and the page. */
export function Document({ ctx, children }: { ctx: PageContext; children?: ReactNode }) {
  const { head, assets, site, t } = ctx;
  return (
    <html lang={ctx.lang} dir={t('lang.dir')}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta httpEquiv="Content-Security-Policy" content={contentSecurityPolicy(site, [assets.styleHash], 'meta')} />
        <title>{head.title}</title>
        {head.description && <meta name="description" content={head.description} />}
        {head.robots && <meta name="robots" content={head.robots} />}
        {head.forward && <script src={assets.forward} data-target={head.forward.target} data-delay={head.forward.delay} />}
        {head.canonical && <link rel="canonical" href={head.canonical} />}
        {head.alternates.map((a) => (
          <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
        ))}
        <meta name="theme-color" content={site.config.colors.theme} />
        <style dangerouslySetInnerHTML={{ __html: ctx.once('stylesheet', () => assets.cssText) }} />
        <link rel="icon" href={assets.icon} type="image/svg+xml" />
        <link rel="apple-touch-icon" href={assets.touchIcon} />
        <link rel="manifest" href={assets.manifest} />
      </head>
      <body>
        <header>
          <a href={ctx.link('home')}>{site.config.brand}</a> · <a href={ctx.blogLink()}>{t('page.blog.title')}</a>
        </header>
        {children}
      </body>
    </html>
  );
}
