import type { PageContext } from '../model/index.ts';

/**
 * Page templates whose pages inline only the first screen's rules (styles/first-screen.css) and
 * link the whole stylesheet where their first screen ends (<RestOfStylesheet />): with the whole
 * stylesheet inline, the home page passed the first round trip (R-VIS-8: 14 KB compressed; el 15.9 KB).
 * Every other page inlines the whole stylesheet and loads none.
 */
const FIRST_SCREEN_TEMPLATES: ReadonlySet<string> = new Set(['home']);

/** Whether this page inlines only its first screen's rules and links the rest (the build has a first-screen stylesheet). */
export function inlinesFirstScreen(ctx: PageContext): boolean {
  return ctx.assets.firstScreen !== undefined && FIRST_SCREEN_TEMPLATES.has(ctx.route.template);
}

/**
 * The inline stylesheet of the head: one request less before the first paint on a slow phone link
 * (measured in benchmarks/critical-css.js); allowed by its hash in the CSP. Encoded once per build.
 */
export function InlineStylesheet({ ctx }: { ctx: PageContext }) {
  const { assets } = ctx;
  const firstScreen = inlinesFirstScreen(ctx) ? assets.firstScreen : undefined;
  const html = firstScreen ? ctx.once('stylesheet:first-screen', () => firstScreen.cssText) : ctx.once('stylesheet', () => assets.cssText);
  return <style dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Where the first screen ends: the whole stylesheet, linked in the body. Chromium, Firefox and
 * Safari paint what is above it at once and parse nothing below it until it has loaded, so no part
 * of the page is ever shown without its rules; the deferred script runs after it. Low priority: the
 * first screen's photo (the LCP element) comes first (in Lighthouse's simulation the stylesheet
 * took the photo's bandwidth: LCP 1.06 s against 0.91 s for the home page). Nothing on pages that
 * inline the whole stylesheet.
 */
export function RestOfStylesheet({ ctx }: { ctx: PageContext }) {
  if (!inlinesFirstScreen(ctx)) return null;
  return <link rel="stylesheet" href={ctx.assets.firstScreen!.href} fetchPriority="low" />;
}
