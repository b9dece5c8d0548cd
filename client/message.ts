/** The one WhatsApp message builder: booking form, floating card and every WhatsApp link. Pure. */
import type { ClientData } from '../src/api.ts';

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

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Build the Spanish message, at most MAX_MESSAGE characters (the free-text message is shortened first). */
export function buildMessage(i: MessageInput): string {
  const t = i.templates;
  const intro = (t.intro[i.variant] ?? Object.values(t.intro)[0] ?? '').replace('{city}', t.city[i.city] ?? t.city.general ?? '');
  const lines = [intro];
  const fields = i.fields ?? {};
  for (const key of FIELD_ORDER) {
    const raw = fields[key];
    if (!raw || !t.fields[key]) continue;
    const value = key === 'duration' ? (t.duration[raw] ?? raw) : key === 'location' ? (t.location[raw] ?? raw) : clean(raw);
    if (value) lines.push(t.fields[key]!.replace('{value}', value));
  }
  if (i.reference) lines.push(t.reference.replace('{value}', clean(i.reference)));
  let text = lines.join('\n');
  if (text.length > MAX_MESSAGE) {
    const over = text.length - MAX_MESSAGE;
    const msgLine = lines.findIndex((l) => fields.message && l.endsWith(clean(fields.message)));
    if (msgLine > 0 && lines[msgLine]!.length > over + 1) lines[msgLine] = `${lines[msgLine]!.slice(0, lines[msgLine]!.length - over - 1)}…`;
    text = lines.join('\n').slice(0, MAX_MESSAGE);
  }
  return text;
}

export function whatsappUrl(digits: string, text: string): string {
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}
