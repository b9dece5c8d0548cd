/** Attribution: first and last campaign touch, with expiry after a quiet period. Pure functions. */

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

/** The touch of this visit: utm parameters, else a referrer mapped to a listing site, else none. */
export function currentTouch(url: URL, referrer: string, referrers: Readonly<Record<string, string>>): Touch | undefined {
  const p = url.searchParams;
  const source = p.get('utm_source')?.trim();
  if (source) {
    const t: Touch = { source: source.slice(0, 100) };
    for (const k of ['medium', 'campaign', 'content'] as const) {
      const v = p.get(`utm_${k}`)?.trim();
      if (v) t[k] = v.slice(0, 100);
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
  for (const [suffix, name] of Object.entries(referrers)) {
    if (host === suffix || host.endsWith(`.${suffix}`)) return { source: name, medium: 'referral' };
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

/** Parse stored attribution defensively (storage is user-editable). */
export function parseAttribution(raw: string | null): Attribution | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Attribution;
    if (typeof v?.first?.source === 'string' && typeof v?.last?.at === 'number' && typeof v.first.at === 'number') return v;
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
