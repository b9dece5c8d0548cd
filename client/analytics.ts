/**
 * Provider-agnostic analytics: every event goes through `track`. GA4 or Plausible load only once
 * consent allows; with no provider, events go nowhere (to the console in watch mode). Events that
 * must happen once are deduplicated by key, so nothing is sent twice.
 */
import type { ClientData } from '../templates/client-data.ts';

export type Params = Record<string, string | number | boolean | undefined>;
export type Sink = (name: string, params: Params) => void;

type Queue = { (...args: unknown[]): void; q?: unknown[][] };
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
    plausible?: Queue;
  }
}

function loadScript(src: string, attrs: Record<string, string> = {}): void {
  const s = document.createElement('script');
  s.async = true;
  s.src = src;
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  document.head.appendChild(s);
}

/** Create the sink for the configured provider (loading its script). Call only with consent. */
export function providerSink(config: ClientData['analytics'], watch: boolean): Sink {
  if (config.provider === 'ga4') {
    window.dataLayer = window.dataLayer || [];
    window.gtag = function gtag() {
      // gtag expects the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
    window.gtag('js', new Date());
    window.gtag('config', config.id, { send_page_view: false });
    loadScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(config.id)}`);
    return (name, params) => window.gtag!('event', name, params);
  }
  if (config.provider === 'plausible') {
    const q: Queue = window.plausible || (((...args: unknown[]) => (q.q = q.q || []).push(args)) as Queue);
    window.plausible = q;
    loadScript(config.src ?? 'https://plausible.io/js/script.manual.js', { 'data-domain': config.domain });
    return (name, params) => window.plausible!(name === 'page_view' ? 'pageview' : name, { props: params });
  }
  return watch ? (name, params) => console.info('[analytics]', name, params) : () => {};
}

export interface Tracker {
  /** Send an event (always). */
  track(name: string, params?: Params): void;
  /** Send an event only the first time `key` is seen on this page. */
  once(key: string, name: string, params?: Params): void;
  /** Switch on sending: events tracked before are held until then (consent granted). */
  start(sink: Sink): void;
  /** Stop sending and drop what is queued (consent withdrawn). */
  stop(): void;
}

/** Events are queued until `start` (consent), then flushed in order; no event is sent twice. */
export function createTracker(): Tracker {
  let sink: Sink | undefined;
  const queue: [string, Params][] = [];
  const seen = new Set<string>();
  const send = (name: string, params: Params) => {
    if (sink) sink(name, params);
    else queue.push([name, params]);
  };
  return {
    track: (name, params = {}) => send(name, params),
    once(key, name, params = {}) {
      if (seen.has(key)) return;
      seen.add(key);
      send(name, params);
    },
    start(s) {
      if (sink) return;
      sink = s;
      for (const [n, p] of queue.splice(0)) s(n, p);
    },
    stop() {
      sink = () => {};
      queue.length = 0;
    },
  };
}
