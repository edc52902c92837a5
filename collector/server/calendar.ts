/**
 * The site's calendar: days, hours and months as the clock of its time zone (an IANA name, the
 * `time_zone` setting) shows them. A day in a zone with daylight saving has 23 or 25 hours. No
 * library: Intl knows every zone's offsets. Shared by the admin area's periods, the day totals'
 * builder and the visitor tasks (which writes land on a day already counted).
 */

/** A calendar day (month 1..12). */
export interface CalendarDay {
  y: number;
  m: number;
  d: number;
}

/** One day of the site's calendar: `YYYY-MM-DD` and its half-open range of times. */
export interface ZonedDay {
  day: string;
  start: number;
  end: number;
}

/** A half-open range of times, in ms since the epoch. */
export interface TimeRange {
  start: number;
  end: number;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** What an IANA zone name can look like (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `UTC`, `Etc/GMT+2`). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;
const HOUR_MS = 3_600_000;

/** The server's own time zone: the default of the `time_zone` setting. */
export function serverTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone's canonical name if `name` is an IANA time zone this node knows, else null. */
export function validTimeZone(name: string): string | null {
  if (!ZONE_NAME.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
function partsIn(timeZone: string, ms: number): CalendarDay & { h: number; min: number; s: number } {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const n: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) if (part.type !== 'literal') n[part.type] = Number(part.value);
  return { y: n.year!, m: n.month!, d: n.day!, h: n.hour!, min: n.minute!, s: n.second! };
}

/** The zone's offset from UTC at `ms`, in ms (Berlin in summer: +2 h). */
function offsetAt(timeZone: string, ms: number): number {
  const p = partsIn(timeZone, ms);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(ms / 1000) * 1000;
}

const DAY_MS = 86_400_000;
/** Days (or hours) kept per zone; then they are forgotten and found again. */
const MAX_CACHED = 4096;
/** Per zone: the offset of each UTC day, and of each hour of a day with a change; null: it changes inside. */
const offsets = new Map<string, { days: Map<number, number | null>; hours: Map<number, number | null> }>();

/** The zone's offset over the `unit` (a day, an hour) that `ms` is in, from `cache`; null if it changes inside. */
function offsetOver(cache: Map<number, number | null>, timeZone: string, unit: number, ms: number): number | null {
  const n = Math.floor(ms / unit);
  let offset = cache.get(n);
  if (offset === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    const first = offsetAt(timeZone, n * unit);
    offset = offsetAt(timeZone, n * unit + unit - 1) === first ? first : null;
    cache.set(n, offset);
  }
  return offset;
}

/**
 * offsetAt through the day's offset: a UTC day whose first and last millisecond have the same offset
 * has no change inside it (a zone changes its offset at most once in months), so its rows need no
 * Intl call each; in a day with a change, through the hour's, and each instant on its own in the
 * hour of the change. Kept for every day asked for (up to MAX_CACHED a zone), not only the last: an
 * export of a small site has a row every few hours, and two exports (or the CSV and the log)
 * interleave; two Intl calls a row were 3.4 s of the collector's 15 s while the bench's readers
 * exported 10,000 records back to back.
 */
function offsetCached(timeZone: string, ms: number): number {
  let cache = offsets.get(timeZone);
  if (!cache) offsets.set(timeZone, (cache = { days: new Map(), hours: new Map() }));
  return offsetOver(cache.days, timeZone, DAY_MS, ms) ?? offsetOver(cache.hours, timeZone, HOUR_MS, ms) ?? offsetAt(timeZone, ms);
}

/**
 * `ms` as ISO 8601 on the zone's clock with its offset (`2025-05-18T10:00:05+02:00`): the time the
 * admin area shows, and still one instant for any program that reads it.
 */
export function isoInZone(timeZone: string, ms: number): string {
  const offsetMs = offsetCached(timeZone, ms);
  // the wall clock: the instant's whole second moved by the offset (what partsIn shows)
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offsetMs);
  const offset = Math.round(offsetMs / 60_000);
  const two = (n: number) => String(n).padStart(2, '0');
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${wall.getUTCFullYear()}-${two(wall.getUTCMonth() + 1)}-${two(wall.getUTCDate())}T${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** The instant the zone's clock shows midnight starting `day` (month and day may overflow: Date.UTC carries). */
export function startOfDay(timeZone: string, day: CalendarDay): number {
  const wall = Date.UTC(day.y, day.m - 1, day.d);
  // twice: the offset at the guess can differ from the offset at the answer across a change
  const first = wall - offsetAt(timeZone, wall);
  return wall - offsetAt(timeZone, first);
}

/** The calendar day the zone's clock shows at `ms`. */
export function dayAt(timeZone: string, ms: number): CalendarDay {
  const { y, m, d } = partsIn(timeZone, ms);
  return { y, m, d };
}

/** `day` moved by `n` days, normalised. */
export function addDays(day: CalendarDay, n: number): CalendarDay {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** `day` moved by `n` months (the day of the month kept as it is). */
export function addMonths(day: CalendarDay, n: number): CalendarDay {
  const t = new Date(Date.UTC(day.y, day.m - 1 + n, 1));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: day.d };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD` of a calendar day. */
export const isoOf = (day: CalendarDay) => `${day.y}-${pad(day.m)}-${pad(day.d)}`;

/** A `YYYY-MM-DD` text as a calendar day, or null when it is none. */
export function parseIsoDay(text: string): CalendarDay | null {
  const match = ISO_DAY.exec(text);
  const day = match ? { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) } : null;
  return day && isoOf(addDays(day, 0)) === text ? day : null;
}

/** Whole days from `a` to `b` (calendar arithmetic, no clock). */
export function daysBetween(a: CalendarDay, b: CalendarDay): number {
  return Math.round((Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / 86_400_000);
}

/** Days already worked out, by zone and day: a period of 12 months and the 12 before is 730 of them on every read. */
const known = new Map<string, ZonedDay>();
const KNOWN_MAX = 20_000;

/** One calendar day as the zone's range of times. */
export function zonedDay(timeZone: string, day: CalendarDay): ZonedDay {
  const name = isoOf(addDays(day, 0));
  const key = `${timeZone} ${name}`;
  let found = known.get(key);
  if (!found) {
    const next = addDays(day, 1);
    found = { day: name, start: startOfDay(timeZone, day), end: startOfDay(timeZone, next) };
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(key, found);
  }
  return { ...found };
}

/** The zone's days from `first` to `last` (both included). */
export function daysFrom(timeZone: string, first: CalendarDay, last: CalendarDay): ZonedDay[] {
  const days: ZonedDay[] = [];
  for (let i = 0, n = daysBetween(first, last); i <= n; i++) days.push(zonedDay(timeZone, addDays(first, i)));
  return days;
}

/** The zone's days that a range of whole days covers. */
export function daysOf(timeZone: string, range: TimeRange): ZonedDay[] {
  return range.end <= range.start ? [] : daysFrom(timeZone, dayAt(timeZone, range.start), dayAt(timeZone, range.end - 1));
}

/** The hours of one day as the zone's clock shows them (23, 24 or 25), with their `HH:MM` labels. */
export function hoursOf(timeZone: string, day: ZonedDay): Array<TimeRange & { label: string }> {
  const hours: Array<TimeRange & { label: string }> = [];
  for (let start = day.start; start < day.end; start += HOUR_MS) {
    const p = partsIn(timeZone, start);
    hours.push({ start, end: Math.min(start + HOUR_MS, day.end), label: `${pad(p.h)}:${pad(p.min)}` });
  }
  // the hour a day of 25 hours has twice (the clocks go back): each with its offset, `02:00 +02:00`
  // and `02:00 +01:00`, so that a chart or a CSV tells them apart
  const labels = hours.map((h) => h.label);
  for (const hour of hours)
    if (labels.indexOf(hour.label) !== labels.lastIndexOf(hour.label)) {
      const minutes = offsetAt(timeZone, hour.start) / 60_000;
      hour.label += ` ${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
    }
  return hours;
}
