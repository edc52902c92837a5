import {
  addDays,
  addMonths,
  dayAt,
  daysBetween,
  daysFrom,
  hoursOf,
  isoOf,
  parseIsoDay,
  startOfDay,
  zonedDay,
  type CalendarDay,
  type TimeRange,
  type ZonedDay,
} from '../calendar';
import { HttpError } from '../edge/http';

/**
 * The admin area's periods, in the site's time zone: today, the last 7 or 30 days (today
 * included), the last 12 months (this month included) and a custom range of days. Each comes with
 * the period of the same length just before it, for comparison, and with its chart's buckets
 * (hours, days or months, as the site's clock shows them).
 */

/** The picker's choices. */
export const PERIODS = ['today', '7d', '30d', '12m', 'custom'] as const;
/** One of the picker's choices. */
export type PeriodName = (typeof PERIODS)[number];

/** One bar of a chart: its days (or, for an hour, its day and range) and its label (`YYYY-MM-DD`, `YYYY-MM` or `HH:00`). */
export interface Bucket extends TimeRange {
  label: string;
  /** The days of the bucket (a day or a month's days); for an hour, the one day it is part of. */
  days: ZonedDay[];
}

/** A range of whole days with its days. */
export interface DayRange extends TimeRange {
  days: ZonedDay[];
}

/** A chosen period: its range and buckets, and the previous period's (bucket for bucket). */
export interface Period {
  name: PeriodName;
  timeZone: string;
  unit: 'hour' | 'day' | 'month';
  current: DayRange;
  previous: DayRange;
  buckets: Bucket[];
  previousBuckets: Bucket[];
  /**
   * For each bucket, the index of the previous period's bucket it is compared with, or null: the
   * same place, but for hours the same clock hour (a day of 23 or 25 hours beside one of 24: its
   * 03:00 beside the 03:00 before, a repeated 02:00's second time beside none).
   */
  previousOf: Array<number | null>;
  /** First and last day of each, `YYYY-MM-DD` in the zone (the last day included). */
  days: { current: [string, string]; previous: [string, string] };
}

/** A custom range longer than this is drawn in months: 400 daily bars are unreadable. */
const MAX_DAY_BUCKETS = 62;
/** Longest custom range: ten years, as far back as any retention setting keeps data. */
const MAX_CUSTOM_DAYS = 3660;

/** A `YYYY-MM-DD` field as a calendar day; throws 400 otherwise. */
export function parseDay(text: string, name: string, headers?: Record<string, string>): CalendarDay {
  const day = parseIsoDay(text);
  if (!day) throw new HttpError(400, `${name} must be a day (YYYY-MM-DD)`, headers, 'day_format');
  return day;
}

/** Buckets from `first` to `last` (included): hours of one day, days, or months (the first and last clipped to the range). */
function bucketsOf(timeZone: string, unit: Period['unit'], first: CalendarDay, last: CalendarDay, count: number): Bucket[] {
  if (unit === 'hour') {
    const day = zonedDay(timeZone, first);
    return hoursOf(timeZone, day).map((hour) => ({ ...hour, days: [day] }));
  }
  const buckets: Bucket[] = [];
  for (let i = 0; i < count; i++) {
    const from = unit === 'day' ? addDays(first, i) : i === 0 ? first : { ...addMonths(first, i), d: 1 };
    const monthEnd = addDays({ ...addMonths(first, i + 1), d: 1 }, -1);
    const to = unit === 'day' ? from : daysBetween(monthEnd, last) < 0 ? last : monthEnd;
    const days = daysFrom(timeZone, from, to);
    buckets.push({
      start: days[0]!.start,
      end: days[days.length - 1]!.end,
      label: unit === 'day' ? isoOf(from) : isoOf(from).slice(0, 7),
      days,
    });
  }
  return buckets;
}

/**
 * The period the admin chose (`period`, and `from`/`to` for `custom`) at `now` in `timeZone`.
 * Throws 400 for a bad choice.
 */
export function periodOf(params: URLSearchParams, now: number, timeZone: string, headers?: Record<string, string>): Period {
  const name = (params.get('period') ?? '30d') as PeriodName;
  if (!PERIODS.includes(name)) throw new HttpError(400, `period must be one of ${PERIODS.join(', ')}`, headers, 'period_unknown');
  const today = dayAt(timeZone, now);
  let first: CalendarDay;
  let last: CalendarDay; // included
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
      throw new HttpError(400, `from must be a day before to, at most ${MAX_CUSTOM_DAYS} days`, headers, 'period_range');
    // refused, not clamped: a range that silently became shorter would compare with the wrong days before it
    if (daysBetween(today, last) > 0)
      throw new HttpError(400, `to must not be after today (${isoOf(today)} in ${timeZone})`, headers, 'period_future');
    unit = length === 1 ? 'hour' : length <= MAX_DAY_BUCKETS ? 'day' : 'month';
  }
  // `last` may be "day 0 of next month" (12m): normalise it
  last = addDays(last, 0);
  // the previous period: as many months (12m) or days before
  const prevFirst = name === '12m' ? { ...addMonths(first, -12), d: 1 } : addDays(first, -(daysBetween(first, last) + 1));
  const prevLast = addDays(first, -1);
  const months = (a: CalendarDay, b: CalendarDay) => (b.y - a.y) * 12 + b.m - a.m + 1;
  const count = (a: CalendarDay, b: CalendarDay) => (unit === 'month' ? months(a, b) : daysBetween(a, b) + 1);
  const range = (a: CalendarDay, b: CalendarDay): DayRange => {
    const days = daysFrom(timeZone, a, b);
    return { start: startOfDay(timeZone, a), end: days[days.length - 1]!.end, days };
  };
  const buckets = bucketsOf(timeZone, unit, first, last, count(first, last));
  const previousBuckets = bucketsOf(timeZone, unit, prevFirst, prevLast, count(prevFirst, prevLast));
  return {
    name,
    timeZone,
    unit,
    current: range(first, last),
    previous: range(prevFirst, prevLast),
    buckets,
    previousBuckets,
    previousOf:
      unit === 'hour' ? byClockHour(buckets, previousBuckets) : buckets.map((_, i) => (i < previousBuckets.length ? i : null)),
    days: { current: [isoOf(first), isoOf(last)], previous: [isoOf(prevFirst), isoOf(prevLast)] },
  };
}

/** Period.previousOf for the hours of two days: by clock hour (`HH:MM`), a repeated hour's n-th time beside the other day's n-th. */
function byClockHour(hours: readonly Bucket[], previous: readonly Bucket[]): Array<number | null> {
  const places = (list: readonly Bucket[]) => {
    const seen = new Map<string, number>();
    return list.map((hour) => {
      const clock = hour.label.slice(0, 5);
      const n = seen.get(clock) ?? 0;
      seen.set(clock, n + 1);
      return `${clock} ${n}`;
    });
  };
  const before = places(previous);
  return places(hours).map((place) => {
    const i = before.indexOf(place);
    return i < 0 ? null : i;
  });
}
