/** Small helpers templates call (kept apart from the model so the page bundle does not carry the schemas). */
import type { City } from './index.ts';

/** Add months to a YYYY-MM-DD date (clamped to the month's last day): the next health check. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

/** The city a page is about (a city page's own entry), if any. */
export function cityOf(route: { entry?: unknown }): City | undefined {
  return route.entry as City | undefined;
}
