/**
 * The one enhancement script. Every page is complete without it; it adds the menu, gallery,
 * dialog, smooth scrolling, the saved language, the booking handoff to WhatsApp, the
 * call-to-action variant, consent, attribution and analytics.
 */
import type { ClientData, PageClientData, SharedClientData } from '../templates/client-data.ts';
import { local, session } from './storage.ts';
import { nameHash } from './names.ts';
import { keys as storageKeys } from './keys.ts';
import { initMenu } from './menu.ts';
import { initCarousel } from './gallery.ts';
import { initDialogs } from './dialog.ts';
import { initScrollButtons } from './scroll.ts';
import { initLanguage } from './language.ts';
import { initConsentBanner, readConsent, showConsentBanner, type ConsentState } from './consent.ts';
import { currentTouch, parseAttribution, reference, updateAttribution, type Attribution } from './attribution.ts';
import { chooseVariant } from './variant.ts';
import { applyVariant, initCtaDismiss, showCtaLine, watchEngagement } from './cta.ts';
import { buildMessage, whatsappUrl } from './message.ts';
import { initBooking, openWhatsApp } from './booking.ts';
import { createTracker, providerSink } from './analytics.ts';
import { createScrollTracker, scrollPercent, watchExitIntent, watchHighEngagement, watchTimeOnPage } from './trackers.ts';
import { registerServiceWorker, removeServiceWorker } from './sw-register.ts';
import { initBlogFilter } from './blog-filter.ts';

function readData(): PageClientData | undefined {
  const el = document.getElementById('site-data');
  try {
    return el ? (JSON.parse(el.textContent ?? '') as PageClientData) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Run `fn` once the page has painted (after the next frame), or after 100 ms where frames are
 * paused (a background tab). What the first paint shows is settled before; the rest of the
 * start-up then runs in its own task instead of holding up that paint.
 */
function afterFirstPaint(fn: () => void | Promise<void>): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    void fn();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

/** Yield to the browser: what follows runs in a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function run(page: PageClientData, shared: SharedClientData | undefined): void {
  const data: ClientData = { ...page, ...(shared ?? { messages: undefined!, tracking: { directorySources: [], referrers: {}, attributionDays: 0 } }) };
  const k = storageKeys(data.storageKey);
  // What the pre-paint boot (boot.ts) already painted, taken over: the saved-language redirect, the
  // consent banner and the call-to-action variant (only a visit whose source asks for direct_action
  // changes here).
  initLanguage(local, k.lang, data.languages, data.defaultLanguage, data.base);
  const tracker = createTracker();
  let consent: ConsentState = readConsent(data.consentMode, local, k.consent);
  const url = new URL(location.href);
  const touch = currentTouch(url, document.referrer, data.tracking.referrers);

  // Attribution and the return-visitor flag are stored only with consent.
  let attribution: Attribution | undefined;
  const remember = () => {
    // Without the shared data the stored attribution is left as it is (its expiry is unknown).
    if (!shared) return;
    attribution = updateAttribution(parseAttribution(local.get(k.attribution)), touch, Date.now(), data.tracking.attributionDays);
    if (attribution) local.set(k.attribution, JSON.stringify(attribution));
    else local.remove(k.attribution);
  };
  // A return visit is one whose earlier visit was in an earlier browser session (decisions.md):
  // the session remembers what its first page found, so its later pages never count the flag
  // that this same session stored.
  const visit = session.get(k.visit);
  const returning = consent === 'granted' && (visit ? visit === 'return' : local.get(k.returning) === 'true');
  if (consent === 'granted') remember();
  const utmSource = touch?.source ?? attribution?.last.source;
  const variant = chooseVariant({
    utmSource,
    returning,
    hour: new Date().getHours(),
    directActionSources: data.cta.directActionSources,
    defaultVariant: data.cta.defaultVariant,
  });
  applyVariant(data, variant);
  document.documentElement.dataset.variant = variant;
  initCtaDismiss(session, k.ctaDismissed);
  // Last: the banner is placed above the call bar, as the bar now is.
  showConsentBanner(consent);

  // After the first paint: everything that only reacts to the visitor or reports, in three tasks,
  // so no one task is long (TBT, R-VIS-8: a task's time over 50 ms counts, x4 on a throttled phone).
  afterFirstPaint(async () => {
    initMenu();
    initScrollButtons();
    initDialogs();
    initBlogFilter();
    for (const c of document.querySelectorAll<HTMLElement>('[data-carousel]')) {
      const template = c.querySelector('[data-counter]')?.getAttribute('data-template') ?? '';
      initCarousel(c, (n, total) => template.replace('{n}', String(n)).replace('{total}', String(total)));
    }
    watchEngagement(window, () => showCtaLine('[data-cta-urgency]'), () => showCtaLine('[data-cta-valued]'));
    await nextTask();

    const ref = () => (consent === 'granted' && attribution ? reference(attribution.last) : reference(touch));

    // Every WhatsApp link goes through the same builder; tel: links stay in this tab.
    // Without the shared data's message templates these stay plain links (as without JavaScript).
    if (shared) for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-whatsapp]')) {
      a.addEventListener('click', (e) => {
        e.preventDefault();
        tracker.track('contact_click', { channel: 'whatsapp', place: a.dataset.whatsapp });
        openWhatsApp(whatsappUrl(data.whatsapp, buildMessage({ templates: data.messages, variant, city: data.page.city, reference: ref() })), () => {});
      });
    }
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href^="tel:"]')) {
      a.removeAttribute('target');
      a.addEventListener('click', () => tracker.track('contact_click', { channel: 'phone', place: a.dataset.call ?? 'link' }));
    }
    if (shared) initBooking({ data, variant: () => variant, reference: ref, onSubmit: () => tracker.track('booking_submit', { variant, city: data.page.city }) });
    await nextTask();

    // Events: queued until consent allows sending.
    const isDirectory = Boolean(utmSource && data.tracking.directorySources.includes(nameHash(utmSource)));
    const fromStealth = session.get(k.fromStealth) === '1';
    const pending = session.get(k.pending);
    const start = () => {
      if (!attribution) remember();
      if (!session.get(k.visit)) session.set(k.visit, returning ? 'return' : 'new');
      local.set(k.returning, 'true');
      session.remove(k.fromStealth);
      session.remove(k.pending);
      // Under `site watch` (its reload script is in the page) events also go to the console.
      tracker.start(providerSink(data.analytics, Boolean(document.querySelector('script[src="/__site/reload.js"]'))));
    };
    if (pending) {
      try {
        for (const [name, params] of JSON.parse(pending) as [string, Record<string, string>][]) tracker.track(name, params);
      } catch {
        /* corrupt: ignore */
      }
    }
    tracker.track('page_view', {
      page_path: location.pathname,
      lang: data.lang,
      variant,
      from_stealth: fromStealth,
      // Before consent only this visit's source is known; stored attribution needs consent.
      first_source: attribution?.first.source ?? touch?.source,
      last_source: attribution?.last.source ?? touch?.source,
      last_medium: attribution?.last.medium ?? touch?.medium,
      last_campaign: attribution?.last.campaign ?? touch?.campaign,
    });
    tracker.track('site_visit', { funnel: 'site_visit' });
    if (isDirectory) tracker.once('directory_first_contact', 'directory_first_contact', { source: utmSource });
    if (data.page.id === 'contact' || data.page.id === 'booking') tracker.track('contact_view', { page: data.page.id });

    const onScroll = createScrollTracker(tracker);
    window.addEventListener('scroll', () => onScroll(scrollPercent(window.scrollY, window.innerHeight, document.documentElement.scrollHeight)), { passive: true });
    watchHighEngagement(tracker, window);
    watchTimeOnPage(tracker);
    watchExitIntent(tracker);
    window.addEventListener('error', (e) => tracker.track('exception', { description: String(e.message).slice(0, 150), fatal: false }));

    // Below-the-fold sentinel: a performance-loaded flag once visible (content deferred 50 px early).
    const sentinel = document.querySelector('[data-sentinel]');
    if (sentinel && 'IntersectionObserver' in window) {
      const io = new IntersectionObserver(
        (entries) => {
          if (entries.some((en) => en.isIntersecting)) {
            document.documentElement.dataset.performanceLoaded = 'true';
            io.disconnect();
          }
        },
        { rootMargin: '50px' },
      );
      io.observe(sentinel);
    }

    if (consent === 'granted') start();
    // The service worker only with consent (R-BRAND-5); without it, one registered earlier (by an
    // older version of this script) is removed with its caches.
    if (consent === 'granted') registerServiceWorker(data.base);
    else void removeServiceWorker(data.base);
    initConsentBanner((choice) => {
      consent = choice;
      local.set(k.consent, choice);
      if (choice === 'granted') {
        start();
        registerServiceWorker(data.base);
      } else {
        tracker.stop();
        for (const key of [k.attribution, k.returning]) local.remove(key);
        session.remove(k.fromStealth);
        session.remove(k.pending);
        session.remove(k.visit);
        void removeServiceWorker(data.base);
      }
    });
    // The start-up is done: every handler is in place (the browser tests wait for this mark).
    performance.mark('site:ready');
  });
}

/**
 * The data every page shares (message templates, listing sites): a hashed file, so it comes from
 * the HTTP cache or the service worker after the first page. Without it (offline, a failed
 * request) WhatsApp links and the booking form work as they do without JavaScript, and nothing is
 * attributed.
 */
async function readShared(url: string): Promise<SharedClientData | undefined> {
  try {
    const res = await fetch(url);
    return res.ok ? ((await res.json()) as SharedClientData) : undefined;
  } catch {
    return undefined;
  }
}

document.documentElement.classList.add('js');
const page = readData();
if (page) void readShared(page.shared).then((shared) => run(page, shared));
