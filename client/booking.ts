/** The booking form: validate in the browser, then hand the request to WhatsApp. Never posts. */
import type { ClientData } from '../templates/client-data.ts';
import { buildMessage, FIELD_ORDER, whatsappUrl, type BookingFields } from './message.ts';
import { zonedInstant, zonedToday } from './zoned.ts';

export const OPEN_DELAY = 100;
const REQUIRED = ['name', 'date', 'time', 'duration', 'location'] as const;

/** Field errors (keys of the form's data-texts) for the values; empty when the request can go. */
export function validateBooking(v: BookingFields, now: number, booking: ClientData['booking']): Partial<Record<keyof BookingFields, string>> {
  const errors: Partial<Record<keyof BookingFields, string>> = {};
  for (const k of REQUIRED) if (!v[k]?.trim()) errors[k] = 'required';
  if (v.email?.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) errors.email = 'invalidEmail';
  if (v.phone?.trim() && !/^\+?[\d\s().-]{6,20}$/.test(v.phone.trim())) errors.phone = 'invalidPhone';
  if (!errors.date && !errors.time) {
    const at = zonedInstant(v.date!, v.time!, booking.timezone);
    if (at === undefined) errors.date = 'invalidDate';
    // A day already over in the city is the date's error; a time too soon today (or just after midnight) the time's.
    else if (at < now + booking.minAdvanceHours * 3_600_000) errors[v.date! < zonedToday(now, booking.timezone) ? 'date' : 'time'] = 'tooSoon';
  }
  return errors;
}

/** Open a tab inside the click (browsers allow it only there), point it at the chat 100 ms later. */
export function openWhatsApp(url: string, onBlocked: () => void): void {
  const tab = window.open('', '_blank');
  if (tab) tab.opener = null;
  setTimeout(() => {
    if (tab && !tab.closed) tab.location.href = url;
    else {
      onBlocked();
      window.location.href = url;
    }
  }, OPEN_DELAY);
}

/** The form's texts (`data-texts`, JSON written by the template); none if it is unreadable. */
function parseTexts(json: string | undefined): Record<string, string> {
  try {
    return json ? (JSON.parse(json) as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export interface BookingDeps {
  data: ClientData;
  variant: () => string;
  reference: () => string;
  onSubmit: () => void;
}

export function initBooking(deps: BookingDeps): void {
  const form = document.querySelector<HTMLFormElement>('form[data-booking]');
  if (!form) return;
  const slot = form.closest<HTMLElement>('[data-booking-slot]');
  const { data } = deps;
  const texts = parseTexts(form.dataset.texts);
  const success = document.querySelector<HTMLElement>('[data-booking-success]');
  const status = form.querySelector<HTMLElement>('[data-form-status]')!;
  const spinner = form.querySelector<HTMLElement>('[data-spinner]');
  const dateInput = form.elements.namedItem('date') as HTMLInputElement | null;
  const citySelect = form.elements.namedItem('city') as HTMLSelectElement | null;
  const zoneLine = form.querySelector<HTMLElement>('[data-zone-text]');
  // The city the visitor came from (city pages link with ?city=<id>); else none: the visitor chooses.
  const wanted = new URLSearchParams(window.location.search).get('city');
  if (citySelect && wanted && [...citySelect.options].some((o) => o.value === wanted && !o.disabled)) citySelect.value = wanted;
  const chosen = () => (citySelect?.value ? citySelect.selectedOptions[0] : undefined);
  const timezone = () => chosen()?.dataset.timezone || data.booking.timezone;
  const anyZone = zoneLine?.textContent ?? '';
  // The form states the chosen city's zone (before a choice: that it is the chosen city's), the
  // date field starts at that city's today, and a city that is coming soon says so.
  const showZone = () => {
    if (zoneLine) zoneLine.textContent = chosen()?.dataset.zoneLine || anyZone;
    form.dataset.timezone = timezone();
    if (dateInput) dateInput.min = zonedToday(Date.now(), timezone());
    for (const note of form.querySelectorAll<HTMLElement>('[data-upcoming]')) note.hidden = note.dataset.upcoming !== citySelect?.value;
  };
  showZone();
  citySelect?.addEventListener('change', showZone);

  const setError = (name: string, key: string | undefined) => {
    const input = form.elements.namedItem(name) as HTMLInputElement | null;
    const box = document.getElementById(`booking-${name}-error`);
    if (!input || !box) return;
    // The error joins what already describes the field (the city's time-zone line) and leaves it again.
    const described = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && id !== box.id);
    if (key) {
      box.textContent = texts[key] ?? key;
      box.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      described.push(box.id);
    } else {
      box.hidden = true;
      input.removeAttribute('aria-invalid');
    }
    if (described.length) input.setAttribute('aria-describedby', described.join(' '));
    else input.removeAttribute('aria-describedby');
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const values: BookingFields = {};
    for (const k of FIELD_ORDER) {
      const el = form.elements.namedItem(k) as HTMLInputElement | null;
      if (el) values[k] = el.value;
    }
    const errors = validateBooking(values, Date.now(), { ...data.booking, timezone: timezone() });
    for (const k of FIELD_ORDER) setError(k, errors[k]);
    // The city is chosen explicitly (the select's empty first choice); it comes first on the form.
    const noCity = Boolean(citySelect && !citySelect.value);
    setError('city', noCity ? 'required' : undefined);
    const first = noCity ? 'city' : FIELD_ORDER.find((k) => errors[k]);
    if (first) {
      const tooSoonAlone = Object.keys(errors).length === 1 && (errors.time ?? errors.date) === 'tooSoon';
      status.textContent = !noCity && tooSoonAlone ? texts.tooSoon ?? 'tooSoon' : texts.summary ?? 'summary';
      status.hidden = false;
      (form.elements.namedItem(first) as HTMLElement).focus();
      return;
    }
    status.hidden = true;
    const text = buildMessage({ templates: data.messages, variant: deps.variant(), city: citySelect?.value || data.page.city, fields: values, reference: deps.reference() });
    deps.onSubmit();
    if (spinner) spinner.hidden = false;
    form.setAttribute('aria-busy', 'true');
    openWhatsApp(whatsappUrl(data.whatsapp, text), () => {
      status.textContent = texts.blocked ?? 'blocked';
      status.hidden = false;
    });
    setTimeout(() => {
      if (spinner) spinner.hidden = true;
      form.removeAttribute('aria-busy');
      (slot ?? form).hidden = true;
      if (success) {
        success.hidden = false;
        success.focus();
      }
    }, OPEN_DELAY + 50);
  });
  // Only now, with the submit handled here, does the form replace the direct links (R-SAFE-10).
  slot?.setAttribute('data-ready', '');
}
