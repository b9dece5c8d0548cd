import type { ReactNode } from 'react';
import { basePath, contentSecurityPolicy, inlineHashesOf, jsonForScript } from '@site/api';
import type { PageContext } from './model/index.ts';
import { structuredData } from './structured-data.ts';
import { clientData, clientDataKey } from './client-data.ts';
import { JsonLd } from './components/JsonLd.tsx';
import { Header } from './components/Header.tsx';
import { Footer } from './components/Footer.tsx';
import { ConsentBanner } from './components/ConsentBanner.tsx';
import { InlineStylesheet } from './components/Stylesheet.tsx';

/** The whole HTML document: head metadata for every route, page chrome for visible pages. */
export function Document({ ctx, children }: { ctx: PageContext; children?: ReactNode }) {
  const { head, assets, site, route, t } = ctx;
  const forwarding = route.kind === 'redirect' || route.kind === 'landing';
  return (
    <html lang={ctx.lang} dir={t('lang.dir')}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta httpEquiv="Content-Security-Policy" content={contentSecurityPolicy(site, inlineHashesOf(assets), 'meta')} />
        {/* The pre-paint boot, first thing after the policy that allows it (client/boot.ts): it settles
            what the first paint shows, then loads the enhancement script after the load event. */}
        {!forwarding && assets.boot && <Boot ctx={ctx} />}
        <title>{head.title}</title>
        {head.description && <meta name="description" content={head.description} />}
        {head.robots && <meta name="robots" content={head.robots} />}
        {head.forward && (
          <script
            src={assets.forward}
            data-target={head.forward.target}
            data-delay={head.forward.delay}
            data-source={route.source}
            data-storage-key={route.source ? site.config.storageKey : undefined}
            data-consent-mode={route.source ? String(site.config.features.consent) : undefined}
          />
        )}
        {/* After the script, inside noscript: React hoists a bare <meta> above every script, and
            with scripting on the forward script must win so the query string and hash survive. */}
        {head.forward && (
          <noscript>
            <meta httpEquiv="refresh" content={`0; url=${head.forward.target}`} />
          </noscript>
        )}
        {head.canonical && <link rel="canonical" href={head.canonical} />}
        {head.alternates.map((a) => (
          <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
        ))}
        {site.config.rtaLabel && (
          <>
            <meta name="rating" content="adult" />
            <meta name="RATING" content={site.config.rtaLabel} />
          </>
        )}
        <meta name="theme-color" content={site.config.colors.theme} />
        {!forwarding && (
          <>
            <meta property="og:type" content={head.ogType} />
            <meta property="og:site_name" content={site.config.brand} />
            <meta property="og:title" content={head.title} />
            {head.description && <meta property="og:description" content={head.description} />}
            {head.canonical && <meta property="og:url" content={head.canonical} />}
            {head.ogImage && <meta property="og:image" content={head.ogImage} />}
            {head.ogImage && <meta property="og:image:alt" content={head.ogImageAlt ?? t('gallery.socialAlt')} />}
            <meta property="og:locale" content={head.ogLocale} />
            <meta name="twitter:card" content="summary_large_image" />
            <meta name="twitter:title" content={head.title} />
            {head.description && <meta name="twitter:description" content={head.description} />}
            {head.ogImage && <meta name="twitter:image" content={head.ogImage} />}
            {/* The whole stylesheet, or the first screen's part of it (components/Stylesheet.tsx). */}
            <InlineStylesheet ctx={ctx} />
            {/* Without scripting: show every slide, hide script-only controls (no layout shift with it). */}
            <noscript>
              <link rel="stylesheet" href={assets.noscriptCss} />
            </noscript>
            <link rel="icon" href={assets.icon} type="image/svg+xml" />
            <link rel="apple-touch-icon" href={assets.touchIcon} />
            <link rel="manifest" href={assets.manifest} />
            {!assets.boot && <script src={assets.js} defer />}
          </>
        )}
        {structuredData(ctx).map((data, i) => (
          <JsonLd key={i} data={data} />
        ))}
      </head>
      {forwarding ? (
        <body>{children}</body>
      ) : (
        <body>
          {/* First in the focus order, drawn at the bottom of the screen (R-BRAND-3). */}
          <ConsentBanner ctx={ctx} />
          <Header ctx={ctx} />
          {children}
          <Footer ctx={ctx} />
          {/* Data for the client script, not executable (the CSP's script-src 'self' holds); one block
              per language and kind of page (client-data.ts), serialised once and shared by every post. */}
          <script type="application/json" id="site-data" dangerouslySetInnerHTML={{ __html: ctx.once(clientDataKey(route), () => jsonForScript(clientData(ctx))) }} />
        </body>
      )}
    </html>
  );
}

/**
 * The boot's element: the same script text on every page (its hash is in the policy), with this
 * page's settings as data attributes (client/boot.ts names them). Only the root home page of the
 * default language redirects to a saved language (`h`).
 */
function Boot({ ctx }: { ctx: PageContext }) {
  const { site, route, assets } = ctx;
  const rootHome = route.template === 'home' && route.lang === site.defaultLanguage;
  return (
    <script
      data-main={assets.js}
      data-k={`${site.config.storageKey}.`}
      data-c={site.config.features.consent ? '' : undefined}
      data-v={site.data.cta.defaultVariant}
      data-b={basePath(site.config.baseUrl)}
      data-h={rootHome ? site.languages.filter((l) => l !== site.defaultLanguage).join(' ') : undefined}
      dangerouslySetInnerHTML={{ __html: assets.boot!.text }}
    />
  );
}
