import type { ClicksStore } from './clicks';
import type { ConsentsStore } from './consents';
import type { Day, Range } from './rollups';
import type { Reads, Sql } from './sql';
import type { VisitsStore } from './visits';
import { replaceAtOnce, replaceInSlices, sumMonthAtOnce, sumMonthInSlices, type DayTotals } from './totals-slices';
import { boundedTotals, TOTALS_TIMEOUT_MS } from './totals-timeout';
import { countFilteredMonth, filteredMonths, keepFilteredMonth, keepFilteredMonthInServer } from './visits-filtered';

/**
 * The day totals' builder's side (jobs.ts; the store's `stats`, composed in index.ts): what is built,
 * and the build of days and months across the areas, each counting its own rows on the readers'
 * side and the builder keeping their totals (totals-slices.ts).
 */

/**
 * The day totals' builder's side on an open database, over the areas that keep day totals;
 * `timeoutMs`: PostgreSQL's bound on each statement of a build (totals-timeout.ts).
 */
export function totalsBuilder(
  sql: Sql,
  reads: Reads,
  visits: VisitsStore,
  clicks: ClicksStore,
  consents: ConsentsStore,
  timeoutMs = TOTALS_TIMEOUT_MS,
) {
  /** The areas with month totals. */
  const MONTHLY = [visits.monthSum, clicks.monthSum];
  /** The areas' day totals' tables (PostgreSQL's build empties a day's in each before counting it again). */
  const DAY_TABLES = ['stats_visits', 'stats_clicks', 'stats_consents'];
  // one writer of the day totals at a time in this process: a build (its counts and its slices), the
  // retention's collapse of their labels and an erasure's (index.ts); a collapse between two slices
  // of a month left the labels of the slices after it, and the month's sums short of what it moved
  let turn: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = turn.then(work, work);
    turn = run.catch(() => {});
    return run;
  };
  return {
    /** `work` when no build, collapse or erasure of day totals runs in this process, and none starts meanwhile. */
    exclusive,
    /** The zone the built days were counted in, the days built, the times of late writes, the earliest data. */
    async state() {
      const built = await reads.all<{ day: string; zone: string }>('SELECT day, zone FROM stats_built');
      const dirty = await reads.all<{ at: number }>('SELECT DISTINCT at FROM stats_dirty');
      const earliest = (await Promise.all([visits.earliest(), clicks.earliest(), consents.earliest()])).filter(
        (t): t is number => t !== null,
      );
      return {
        zone: built[0]?.zone ?? null,
        built: new Set(built.map((r) => r.day)),
        /** The months with filtered month totals, and the earliest page view kept (none are counted before it). */
        filtered: await filteredMonths(reads),
        earliestView: await visits.earliest(),
        dirty: dirty.map((r) => Number(r.at)),
        earliest: earliest.length ? Math.min(...earliest) : null,
      };
    },
    /** Forget every day total (the site's time zone changed). */
    reset: () =>
      exclusive(() =>
        sql.transaction(async (tx) => {
          await visits.clearTotals(tx);
          await clicks.clearTotals(tx);
          await consents.clearTotals(tx);
          await tx.run('DELETE FROM stats_built');
          await tx.run('DELETE FROM stats_dirty');
        }),
      ),
    /**
     * Count `days` (whole days of the site's calendar in `zone`) from the stored rows and keep their
     * totals; late writes noted before `startedAt` are done with. PostgreSQL: counted and inserted in
     * the database server (`INSERT ... SELECT`, each area's keepForTotals), in one transaction whose
     * statements are bounded (totals-timeout.ts: past it, nothing of the batch is kept); SQLite:
     * counted on the readers' side, each day unmarked, written in short transactions and marked built
     * in the last (totals-slices.ts).
     */
    build: (days: readonly Day[], hoursOf: (day: Day) => Range[], zone: string, startedAt: number): Promise<void> =>
      exclusive(async () => {
        // a day counted again: its month's totals are counted again too (buildMonth)
        const unmark = async (tx: Sql, day: Day) => {
          await tx.run('DELETE FROM stats_built WHERE day IN (?, ?)', [day.day.slice(0, 7), day.day]);
          await visits.unmarkMonth(tx, day.day.slice(0, 7));
        };
        const mark = async (tx: Sql, day: Day) => {
          await tx.run('INSERT INTO stats_built (day, zone, start_at, end_at, built_at) VALUES (?, ?, ?, ?, ?)', [
            day.day,
            zone,
            day.start,
            day.end,
            startedAt,
          ]);
          await tx.run('DELETE FROM stats_dirty WHERE at >= ? AND at < ? AND noted_at <= ?', [day.start, day.end, startedAt]);
        };
        const dropMonth = async (tx: Sql, day: Day) => {
          for (const { table } of MONTHLY) await tx.run(`DELETE FROM ${table} WHERE day = ?`, [day.day.slice(0, 7)]);
        };
        if (sql.engine === 'postgres') {
          // counted and kept in the server: read into the collector and written back 200 rows a
          // statement, a day's 30,000 rows (10,000 distinct pages) were parsed and built into
          // statements on the collector's thread, and the heartbeats due meanwhile waited behind it
          const span = days.length > 1 ? `${days[0]!.day} to ${days.at(-1)!.day}` : (days[0]?.day ?? 'no day');
          const what = `the day totals of ${span}`;
          await boundedTotals(sql, timeoutMs, what, async (tx) => {
            for (const day of days) {
              await unmark(tx, day);
              await dropMonth(tx, day);
              for (const table of DAY_TABLES) await tx.run(`DELETE FROM ${table} WHERE day = ?`, [day.day]);
            }
            // one statement per area (and per area's hours) for all the days, as the count on the readers' side
            await visits.keepForTotals(tx, days, hoursOf);
            await clicks.keepForTotals(tx, days);
            await consents.keepForTotals(tx, days, hoursOf);
            for (const day of days) await mark(tx, day);
          });
          return;
        }
        const [v, c, k] = await Promise.all([
          visits.countForTotals(days, hoursOf),
          clicks.countForTotals(days),
          consents.countForTotals(days, hoursOf),
        ]);
        const totalsOf = (i: number): DayTotals[] => [
          visits.dayTotals(v[i]!.rows),
          clicks.dayTotals(c[i]!.rows),
          consents.dayTotals(k[i]!.rows),
        ];
        const atOnce = async (tx: Sql, day: Day, i: number) => {
          await unmark(tx, day);
          await dropMonth(tx, day);
          await replaceAtOnce(tx, day.day, totalsOf(i));
          await mark(tx, day);
        };
        for (const [i, day] of days.entries()) {
          // reads take no day before the first built one (rollups.ts builtDays): the first, unmarked
          // while written again, would read as empty; it is written in one transaction
          const first = await sql.get<{ day: string | null }>('SELECT MIN(day) AS day FROM stats_built WHERE length(day) = 10');
          if (first?.day === day.day) {
            await sql.transaction((tx) => atOnce(tx, day, i));
            continue;
          }
          await sql.transaction((tx) => unmark(tx, day));
          const totals = totalsOf(i);
          const month = day.day.slice(0, 7);
          const drop = [
            ...MONTHLY.map(({ table }) => ({ table, day: month })),
            ...totals.map(({ table }) => ({ table, day: day.day })),
          ];
          await replaceInSlices(sql, drop, day.day, totals);
          await sql.transaction((tx) => mark(tx, day));
        }
      }),
    /**
     * Month totals (`day` = `YYYY-MM`) of a whole month whose days all have totals: the sums of
     * those days, so that a period of 12 months reads 11 months and a few days (PostgreSQL: one
     * transaction; SQLite: unmarked, summed on the readers' side and written a slice at a time,
     * marked in the last). With `days` (the month's days), its filtered month totals too, counted
     * from the rows (visits-filtered.ts: SQLite on the readers' side, PostgreSQL in the server).
     */
    buildMonth: (month: Day, zone: string, startedAt: number, days?: readonly Day[]): Promise<void> =>
      exclusive(async () => {
        // PostgreSQL counts and keeps them in the server: their rows (450,000 a month at 10,000 distinct
        // pages a day) parsed on this thread held the heartbeats (visits-filtered.ts)
        if (days && sql.engine === 'postgres') await keepFilteredMonthInServer(sql, month, days, startedAt, timeoutMs);
        else if (days) await keepFilteredMonth(sql, month, await countFilteredMonth(reads, days), startedAt);
        const mark = async (tx: Sql) => {
          await tx.run('DELETE FROM stats_built WHERE day = ?', [month.day]);
          await tx.run('INSERT INTO stats_built (day, zone, start_at, end_at, built_at) VALUES (?, ?, ?, ?, ?)', [
            month.day,
            zone,
            month.start,
            month.end,
            startedAt,
          ]);
        };
        if (sql.engine === 'postgres') {
          await boundedTotals(sql, timeoutMs, `the month totals of ${month.day}`, async (tx) => {
            for (const sum of MONTHLY) await sumMonthAtOnce(tx, month.day, sum);
            await mark(tx);
          });
          return;
        }
        await sql.transaction((tx) => tx.run('DELETE FROM stats_built WHERE day = ?', [month.day]));
        await replaceInSlices(
          sql,
          MONTHLY.map(({ table }) => ({ table, day: month.day })),
          month.day,
          [],
        );
        for (const sum of MONTHLY) await sumMonthInSlices(sql, reads, month.day, sum);
        await sql.transaction(mark);
      }),
  };
}
