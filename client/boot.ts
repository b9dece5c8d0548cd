/**
 * The pre-paint boot (decisions.md, Hosting): the one inline script, the same bytes on every page
 * that loads the client script, allowed by its sha256 in the site's one policy, at most 1 KB
 * minified (src/assets/bundle.ts refuses more). It runs in the head, before anything is painted,
 * and settles what the first paint shows; the enhancement script (`main.ts`, this element's
 * `data-main`) then loads two frames after the load event, so it never holds up
 * that paint (R-VIS-8: in Lighthouse's simulation a script that runs before the paint charges it a
 * connection and its evaluation).
 *
 * From the page's settings (below):
 * - the root home's saved-language redirect (language.ts; `h`: the other languages, only there);
 * - the call-to-action variant from consent, return visit and hour (variant.ts), as
 *   `<html data-variant>`, and its texts once the page is parsed (cta.ts applyVariant). A visit
 *   whose source asks for `direct_action` gets it from main.ts (the source rules take more code
 *   than fits here);
 * - `<html data-consent-shown>` when the consent banner is to be shown (consent.ts), and
 *   `<html data-cta-off>` when the call to action was dismissed in this session (cta.ts): the
 *   stylesheet shows and hides from these, so both are in the first paint.
 * Written for size, it repeats those modules' rules; tests/e2e/boot.test.ts holds them equal.
 * Without JavaScript none of this runs and the pages work as served.
 */

/**
 * The settings, as the element's data attributes (templates/Document.tsx): `k` the storage key
 * prefix with its dot (keys.ts), `c` present in consent mode, `v` the default variant, `b` the
 * base path, and on the root home only `h`, the languages a saved choice redirects to.
 */
const doc = document;
const root = doc.documentElement;
const s = (doc.currentScript as HTMLScriptElement).dataset;
let main = s.main;
try {
  const session = sessionStorage;
  const get = (name: string) => localStorage.getItem(s.k + name);
  const lang = get('lang')!;
  const consent = s.c != null ? get('consent') : 'granted';
  const granted = consent == 'granted';
  const visit = session.getItem(s.k + 'visit');
  const hour = new Date().getHours();
  const at = location;
  if (lang && (s.h || '').split(' ').includes(lang)) (main = ''), at.replace(s.b + '/' + lang + at.search + at.hash);
  else {
    const variant = (root.dataset.variant = granted && (visit ? visit == 'return' : get('returning') == 'true') ? 'premium_service' : hour > 19 || hour < 7 ? 'personal_connection' : s.v!);
    if (!granted && consent != 'denied') root.dataset.consentShown = '';
    if (session.getItem(s.k + 'ctaDismissed')) root.dataset.ctaOff = '';
    if (variant != s.v)
      doc.addEventListener('DOMContentLoaded', () => {
        const d = JSON.parse(doc.getElementById('site-data')!.textContent!) as { cta: { variants: Record<string, string>[] } };
        const v = d.cta.variants.find((x) => x.id == variant)!;
        // Not the icon: the stylesheet never shows it (main.ts sets it with the rest).
        for (const f of ['primary', 'secondary', 'urgency']) for (const el of doc.querySelectorAll(`[data-cta-${f}]`)) el.textContent = v[f]!;
      });
  }
} catch {}
// Two frames after the load event, so the first paint has been shown (the frame after it is not
// enough: Lighthouse counts a request that starts before the paint's presentation in the LCP
// chain). If the script cannot load (offline, blocked), the banner it would answer goes too.
const frame = requestAnimationFrame;
addEventListener('load', () => frame(() => frame(() => main && doc.head.append(Object.assign(doc.createElement('script'), { src: main, onerror: () => delete root.dataset.consentShown })))));
