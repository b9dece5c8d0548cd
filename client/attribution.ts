/** Attribution: first and last campaign touch, with expiry after a quiet period. Pure functions. */
import { cut, wellFormed } from './text.ts';
import { decodeLabel, nameHash } from './names.ts';

export interface Touch {
  source: string;
  medium?: string;
  campaign?: string;
  content?: string;
}

export interface Attribution {
  first: Touch & { at: number };
  last: Touch & { at: number };
}

const DAY = 86_400_000;

/**
 * The touch of this visit: utm parameters, else a referrer mapped to a listing site, else none.
 * `referrers` maps the hash of a domain to its source label, base64 (client/names.ts).
 */
export function currentTouch(url: URL, referrer: string, referrers: Readonly<Record<string, string>>): Touch | undefined {
  const p = url.searchParams;
  const source = p.get('utm_source')?.trim();
  if (source) {
    // Made well-formed and cut on a character boundary: what is stored is sent for 90 days.
    const t: Touch = { source: cut(wellFormed(source), 100) };
    for (const k of ['medium', 'campaign', 'content'] as const) {
      const v = p.get(`utm_${k}`)?.trim();
      if (v) t[k] = cut(wellFormed(v), 100);
    }
    return t;
  }
  if (!referrer) return undefined;
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (host === url.hostname) return undefined;
  // The host and each parent domain (a.b.example.com, b.example.com, example.com), most specific first.
  for (let at = 0; at >= 0; at = host.indexOf('.', at) + 1 || -1) {
    const encoded = Object.hasOwn(referrers, nameHash(host.slice(at))) ? referrers[nameHash(host.slice(at))] : undefined;
    const name = encoded === undefined ? undefined : decodeLabel(encoded);
    if (name) return { source: name, medium: 'referral' };
  }
  return undefined;
}

/** Apply a touch (or none) at `now`: everything is cleared after `days` without a touch. */
export function updateAttribution(prev: Attribution | undefined, touch: Touch | undefined, now: number, days: number): Attribution | undefined {
  const live = prev && now - prev.last.at <= days * DAY ? prev : undefined;
  if (!touch) return live;
  const stamped = { ...touch, at: now };
  return { first: live?.first ?? stamped, last: stamped };
}

/** A stored touch exactly as this script writes it, or undefined: storage is user-editable. */
function storedTouch(v: unknown): (Touch & { at: number }) | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const t = v as Record<string, unknown>;
  if (typeof t.source !== 'string' || !t.source || typeof t.at !== 'number' || !Number.isFinite(t.at)) return undefined;
  const touch: Touch & { at: number } = { source: cut(wellFormed(t.source), 100), at: t.at };
  for (const k of ['medium', 'campaign', 'content'] as const) {
    if (t[k] === undefined) continue;
    if (typeof t[k] !== 'string') return undefined;
    touch[k] = cut(wellFormed(t[k] as string), 100);
  }
  return touch;
}

/** Parse stored attribution defensively: anything not exactly of its shape is dropped (start again). */
export function parseAttribution(raw: string | null): Attribution | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Record<string, unknown> | null;
    const first = storedTouch(v?.first);
    const last = storedTouch(v?.last);
    if (first && last) return { first, last };
  } catch {
    /* corrupt: start again */
  }
  return undefined;
}

/** The short reference for the WhatsApp message: "source / medium / campaign". */
export function reference(t: Touch | undefined): string {
  if (!t) return '';
  return [t.source, t.medium, t.campaign, t.content].filter(Boolean).join(' / ');
}
