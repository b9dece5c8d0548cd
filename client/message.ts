/** The one WhatsApp message builder: booking form, floating card and every WhatsApp link. Pure. */
import type { ClientData } from '../templates/client-data.ts';
import { cut, wellFormed } from './text.ts';

export const MAX_MESSAGE = 1000;
export const FIELD_ORDER = ['name', 'phone', 'email', 'date', 'time', 'duration', 'location', 'message'] as const;
export type BookingFields = Partial<Record<(typeof FIELD_ORDER)[number], string>>;

export interface MessageInput {
  templates: ClientData['messages'];
  variant: string;
  /** A city id of data/cities.yaml, or `general` (no city line). */
  city: string;
  fields?: BookingFields;
  /** Attribution reference; empty for none. */
  reference?: string;
}

const clean = (s: string) => wellFormed(s).replace(/\s+/g, ' ').trim();

/**
 * A form date (YYYY-MM-DD) as the message language writes it ("lunes, 30 de noviembre de 2026"),
 * weekday included so that nobody misreads day and month; anything else as typed.
 */
function messageDate(raw: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!day || day.getUTCDate() !== Number(m![3])) return clean(raw);
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(day);
  } catch {
    return clean(raw);
  }
}
/** `template` with `{name}` replaced by `value` taken literally (`$&` in a name is not a replacement pattern). */
const fill = (template: string, name: string, value: string) => template.replace(`{${name}}`, () => value);

/** Build the message in the message language (cta.yaml), at most MAX_MESSAGE characters (the free-text message is shortened first). */
export function buildMessage(i: MessageInput): string {
  const t = i.templates;
  const intro = fill(t.intro[i.variant] ?? Object.values(t.intro)[0] ?? '', 'city', t.city[i.city] ?? t.city.general ?? '');
  const lines = [intro];
  const fields = i.fields ?? {};
  for (const key of FIELD_ORDER) {
    const raw = fields[key];
    if (!raw || !t.fields[key]) continue;
    // Option labels by own key only (a crafted `constructor` must not find Object's).
    const label = key === 'duration' ? t.duration : key === 'location' ? t.location : undefined;
    const value = label && Object.hasOwn(label, raw) ? label[raw]! : key === 'date' ? messageDate(raw, t.locale) : clean(raw);
    if (value) lines.push(fill(t.fields[key]!, 'value', value));
  }
  if (i.reference) lines.push(fill(t.reference, 'value', clean(i.reference)));
  let text = lines.join('\n');
  if (text.length > MAX_MESSAGE) {
    const over = text.length - MAX_MESSAGE;
    const msgLine = lines.findIndex((l) => fields.message && l.endsWith(clean(fields.message)));
    if (msgLine > 0 && lines[msgLine]!.length > over + 1) lines[msgLine] = `${cut(lines[msgLine]!, lines[msgLine]!.length - over - 1)}…`;
    text = cut(lines.join('\n'), MAX_MESSAGE);
  }
  return text;
}

export function whatsappUrl(digits: string, text: string): string {
  return `https://wa.me/${digits}?text=${encodeURIComponent(wellFormed(text))}`;
}
