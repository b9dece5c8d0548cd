/** Wall-clock times in a named time zone (the city's), without a date library. Pure. */

function parts(ts: number, timeZone: string): Record<string, number> {
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const out: Record<string, number> = {};
  for (const p of fmt.formatToParts(ts)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** Milliseconds the zone is ahead of UTC at instant `ts`. */
function offset(ts: number, timeZone: string): number {
  const p = parts(ts, timeZone);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ts / 1000) * 1000;
}

/** The instant of `date` (YYYY-MM-DD) at `time` (HH:MM) on the wall clock of `timeZone`. */
export function zonedInstant(date: string, time: string, timeZone: string): number | undefined {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return undefined;
  const [y, m, day, h, min] = [Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2])];
  if (m < 1 || m > 12 || day < 1 || day > 31 || h > 23 || min > 59) return undefined;
  const wall = Date.UTC(y, m - 1, day, h, min);
  let ts = wall - offset(wall, timeZone);
  const second = offset(ts, timeZone); // across a DST change the first guess can be an hour off
  ts = wall - second;
  return ts;
}

/** Today's date in the zone, YYYY-MM-DD (for the date field's min). */
export function zonedToday(now: number, timeZone: string): string {
  const p = parts(now, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
