import { addDays, addMonths, dayAt, daysFrom, hoursOf, zonedDay, type ZonedDay } from './calendar';
import type { Store } from './store';

/**
 * The collector's background work, on injectable timers: the retention run (at start, hourly, and
 * when the admin saves the settings) and the day totals' builder (at start, every ten minutes, and
 * after the site's time zone changed). A failing run is reported and tried again at the next.
 */

/** Repeating timers; the collector's own by default, a test's by injection (no real hour passes in a test). */
export interface Timers {
  /** Run `run` every `ms`; answers how to stop it. */
  every(ms: number, run: () => void): () => void;
}

/** Node's timers, not keeping the process up on their own. */
export const REAL_TIMERS: Timers = {
  every(ms, run) {
    const timer = setInterval(run, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export const RETENTION_EVERY_MS = 60 * 60 * 1000;
export const TOTALS_EVERY_MS = 10 * 60 * 1000;
/** Days counted per batch: one read per area, one short write transaction. */
const DAYS_PER_BATCH = 7;

/** What the jobs need. */
export interface JobDeps {
  store: Store;
  now: () => number;
  timers: Timers;
  /** The retention run (admin: its settings decide); null when another process runs it now. */
  retain: (wait: boolean) => Promise<unknown>;
  /** The site's time zone. */
  timeZone: () => Promise<string>;
  onError: (error: unknown, context?: string) => void;
}

/** The jobs of one collector. */
export function createJobs({ store, now, timers, retain, timeZone, onError }: JobDeps) {
  const stops: Array<() => void> = [];
  let retention: Promise<unknown> = Promise.resolve();
  let totals: Promise<unknown> = Promise.resolve();

  /**
   * Count the days that ended and have no totals yet (from the earliest stored data on, in order,
   * so the built days stay one unbroken run), and again the days with late writes. Under another
   * time zone than the totals', every total goes first.
   */
  async function buildTotals(): Promise<void> {
    const zone = await timeZone();
    let state = await store.stats.state();
    if (state.zone !== null && state.zone !== zone) {
      await store.stats.reset();
      state = await store.stats.state();
    }
    if (state.earliest === null) return;
    const startedAt = now();
    const yesterday = addDays(dayAt(zone, startedAt), -1);
    const first = dayAt(zone, state.earliest);
    const all = daysFrom(zone, first, yesterday);
    const late = new Set(state.dirty.map((at) => zonedDay(zone, dayAt(zone, at)).day));
    const todo: ZonedDay[] = all.filter((d) => !state.built.has(d.day) || late.has(d.day));
    for (let i = 0; i < todo.length; i += DAYS_PER_BATCH) {
      // the zone changed meanwhile (the admin's save dropped every total): no more days of the old
      // one; the run the change asked for counts them again
      if (i > 0 && (await timeZone()) !== zone) return;
      await store.stats.build(todo.slice(i, i + DAYS_PER_BATCH), (day) => hoursOf(zone, day), zone, startedAt);
      // let the requests that arrived meanwhile in
      await new Promise((resolve) => setImmediate(resolve));
    }
    // then the month totals of every month that has ended with all its days counted, and has none
    // (or had a day counted again just now)
    const counted = new Set([...state.built, ...todo.map((d) => d.day)]);
    const again = new Set(todo.map((d) => d.day.slice(0, 7)));
    const months = new Map<string, ZonedDay[]>();
    for (const d of all) months.set(d.day.slice(0, 7), [...(months.get(d.day.slice(0, 7)) ?? []), d]);
    for (const [month, days] of months) {
      const last = days[days.length - 1]!;
      const first = dayAt(zone, days[0]!.start);
      // a month with month totals was whole when they were counted (an erasure may have taken its first days' rows since)
      const whole = state.built.has(month) || (first.d === 1 && addDays(dayAt(zone, last.start), 1).d === 1);
      const calendar = daysFrom(zone, { ...first, d: 1 }, addDays({ ...addMonths(first, 1), d: 1 }, -1));
      // filtered month totals only for a month with page views kept (not one retention has taken)
      const filtered = state.earliestView !== null && last.end > state.earliestView;
      const done = state.built.has(month) && (!filtered || state.filtered.has(month));
      if (!whole || !calendar.every((d) => counted.has(d.day)) || (done && !again.has(month))) continue;
      const range = { day: month, start: calendar[0]!.start, end: calendar[calendar.length - 1]!.end };
      await store.stats.buildMonth(range, zone, startedAt, filtered ? calendar : undefined);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const chain = (previous: Promise<unknown>, work: () => Promise<unknown>, context: string) =>
    previous.then(work).then(
      () => undefined,
      (error: unknown) => onError(error, context),
    );
  const runRetention = (): void => {
    retention = chain(retention, () => retain(false), 'retention run');
  };
  const runTotals = (): Promise<unknown> => (totals = chain(totals, buildTotals, 'day totals'));

  return {
    /** Run both now and start their timers. */
    start(): void {
      runRetention();
      totals = runTotals();
      stops.push(timers.every(RETENTION_EVERY_MS, runRetention));
      stops.push(
        timers.every(TOTALS_EVERY_MS, () => {
          totals = runTotals();
        }),
      );
    },
    /** The totals again soon (the time zone changed). */
    rebuildTotals: (): void => {
      totals = runTotals();
    },
    /** The day totals' run now, after the runs under way (the bench and tests wait for it). */
    buildTotals: async () => {
      await retention;
      await runTotals();
    },
    /** Stop the timers and wait for the runs in progress. */
    async stop(): Promise<void> {
      for (const stop of stops.splice(0)) stop();
      await Promise.all([retention, totals]);
    },
  };
}
