import { HttpError } from '../http';

/**
 * The admin area's periods, in the site's time zone (an IANA name, the `time_zone` setting): today,
 * the last 7 or 30 days (today included), the last 12 months (this month included) and a custom
 * range of days. Each comes with the period of the same length just before it, for comparison,
 * and with its chart's buckets (hours, days or months, as the site's clock shows them: a day in a
 * time zone with daylight saving has 23 or 25 hours). No library: Intl knows every zone's offsets.
 */

/** The picker's choices. */
export const PERIODS = ['today', '7d', '30d', '12m', 'custom'] as const;
/** One of the picker's choices. */
export type PeriodName = (typeof PERIODS)[number];

/** A half-open range of times, in ms since the epoch. */
export interface Range {
  start: number;
  end: number;
}

/** One bar of a chart: its range and its label (`YYYY-MM-DD`, `YYYY-MM` or `HH:00` in the zone). */
export interface Bucket extends Range {
  label: string;
}

/** A chosen period: its range and buckets, and the previous period's (bucket for bucket). */
export interface Period {
  name: PeriodName;
  timeZone: string;
  unit: 'hour' | 'day' | 'month';
  current: Range;
  previous: Range;
  buckets: Bucket[];
  previousBuckets: Bucket[];
  /** First and last day of each, `YYYY-MM-DD` in the zone (the last day included). */
  days: { current: [string, string]; previous: [string, string] };
}

/** A custom range longer than this is drawn in months: 400 daily bars are unreadable. */
const MAX_DAY_BUCKETS = 62;
/** Longest custom range: ten years, as far back as any retention setting keeps data. */
const MAX_CUSTOM_DAYS = 3660;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** What an IANA zone name can look like (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `UTC`, `Etc/GMT+2`). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

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

/** A calendar day (month 1..12). */
interface Day {
  y: number;
  m: number;
  d: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function partsIn(timeZone: string, ms: number): Day & { h: number; min: number; s: number } {
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

/** The instant the zone's clock shows midnight starting `day` (month and day may overflow: Date.UTC carries). */
export function startOfDay(timeZone: string, day: Day): number {
  const wall = Date.UTC(day.y, day.m - 1, day.d);
  // twice: the offset at the guess can differ from the offset at the answer across a change
  const first = wall - offsetAt(timeZone, wall);
  return wall - offsetAt(timeZone, first);
}

/** The calendar day the zone's clock shows at `ms`. */
function dayAt(timeZone: string, ms: number): Day {
  const { y, m, d } = partsIn(timeZone, ms);
  return { y, m, d };
}

/** `day` moved by `n` days or months, normalised. */
function addDays(day: Day, n: number): Day {
  const t = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}
function addMonths(day: Day, n: number): Day {
  const t = new Date(Date.UTC(day.y, day.m - 1 + n, 1));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: day.d };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD` of a calendar day. */
export const isoOf = (day: Day) => `${day.y}-${pad(day.m)}-${pad(day.d)}`;

/** A `YYYY-MM-DD` field as a calendar day; throws 400 otherwise. */
export function parseDay(text: string, name: string, headers?: Record<string, string>): Day {
  const match = ISO_DAY.exec(text);
  const day = match ? { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) } : null;
  if (!day || isoOf(addDays(day, 0)) !== text) throw new HttpError(400, `${name} must be a day (YYYY-MM-DD)`, headers);
  return day;
}

/** Whole days from `a` to `b` (calendar arithmetic, no clock). */
function daysBetween(a: Day, b: Day): number {
  return Math.round((Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / 86_400_000);
}

/** Buckets from `first` for `count` units. */
function bucketsOf(timeZone: string, unit: Period['unit'], first: Day, count: number, clip: Range): Bucket[] {
  const buckets: Bucket[] = [];
  if (unit === 'hour') {
    // the zone's hours of one day: 23, 24 or 25 of them; labelled by the hour the clock shows
    const dayStart = startOfDay(timeZone, first);
    const dayEnd = startOfDay(timeZone, addDays(first, 1));
    for (let start = dayStart; start < dayEnd; start += 3_600_000) {
      const p = partsIn(timeZone, start);
      buckets.push({ start, end: Math.min(start + 3_600_000, dayEnd), label: `${pad(p.h)}:${pad(p.min)}` });
    }
    return buckets;
  }
  for (let i = 0; i < count; i++) {
    const from = unit === 'day' ? addDays(first, i) : { ...addMonths(first, i), d: 1 };
    const to = unit === 'day' ? addDays(first, i + 1) : { ...addMonths(first, i + 1), d: 1 };
    const start = Math.max(clip.start, startOfDay(timeZone, from));
    const end = Math.min(clip.end, startOfDay(timeZone, to));
    buckets.push({ start, end, label: unit === 'day' ? isoOf(from) : isoOf(from).slice(0, 7) });
  }
  return buckets;
}

/**
 * The period the admin chose (`period`, and `from`/`to` for `custom`) at `now` in `timeZone`.
 * Throws 400 for a bad choice.
 */
export function periodOf(params: URLSearchParams, now: number, timeZone: string, headers?: Record<string, string>): Period {
  const name = (params.get('period') ?? '30d') as PeriodName;
  if (!PERIODS.includes(name)) throw new HttpError(400, `period must be one of ${PERIODS.join(', ')}`, headers);
  const today = dayAt(timeZone, now);
  let first: Day;
  let last: Day; // included
  let unit: Period['unit'];
  if (name === 'today') [first, last, unit] = [today, today, 'hour'];
  else if (name === '7d') [first, last, unit] = [addDays(today, -6), today, 'day'];
  else if (name === '30d') [first, last, unit] = [addDays(today, -29), today, 'day'];
  else if (name === '12m') [first, last, unit] = [{ ...addMonths(today, -11), d: 1 }, { ...addMonths(today, 1), d: 0 }, 'month'];
  else {
    first = parseDay(params.get('from') ?? '', 'from', headers);
    last = parseDay(params.get('to') ?? '', 'to', headers);
    const length = daysBetween(first, last) + 1;
    if (length < 1 || length > MAX_CUSTOM_DAYS)
      throw new HttpError(400, `from must be a day before to, at most ${MAX_CUSTOM_DAYS} days`, headers);
    unit = length === 1 ? 'hour' : length <= MAX_DAY_BUCKETS ? 'day' : 'month';
  }
  // `last` may be "day 0 of next month" (12m): normalise it
  last = addDays(last, 0);
  const current = { start: startOfDay(timeZone, first), end: startOfDay(timeZone, addDays(last, 1)) };
  // the previous period: as many months (12m) or days before
  const prevFirst = name === '12m' ? { ...addMonths(first, -12), d: 1 } : addDays(first, -(daysBetween(first, last) + 1));
  const prevLast = addDays(first, -1);
  const previous = { start: startOfDay(timeZone, prevFirst), end: current.start };
  const months = (a: Day, b: Day) => (b.y - a.y) * 12 + b.m - a.m + 1;
  const count = (a: Day, b: Day) => (unit === 'month' ? months(a, b) : daysBetween(a, b) + 1);
  return {
    name,
    timeZone,
    unit,
    current,
    previous,
    buckets: bucketsOf(timeZone, unit, first, count(first, last), current),
    previousBuckets: bucketsOf(timeZone, unit, prevFirst, count(prevFirst, prevLast), previous),
    days: { current: [isoOf(first), isoOf(last)], previous: [isoOf(prevFirst), isoOf(prevLast)] },
  };
}
