import type { ClicksStore } from './clicks';
import type { ConsentsStore } from './consents';
import type { Day, Range } from './rollups';
import type { Reads, Sql } from './sql';
import type { VisitsStore } from './visits';
import { countFilteredMonth, filteredMonths, keepFilteredMonth } from './visits-filtered';

/**
 * The day totals' builder's side (jobs.ts; the store's `stats`, composed in index.ts): what is built,
 * and the build of days and months across the areas, each counting its own rows on the readers'
 * side and keeping its totals in the builder's transaction.
 */

/** The day totals' builder's side on an open database, over the areas that keep day totals. */
export function totalsBuilder(sql: Sql, reads: Reads, visits: VisitsStore, clicks: ClicksStore, consents: ConsentsStore) {
  return {
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
      sql.transaction(async (tx) => {
        await visits.clearTotals(tx);
        await clicks.clearTotals(tx);
        await consents.clearTotals(tx);
        await tx.run('DELETE FROM stats_built');
        await tx.run('DELETE FROM stats_dirty');
      }),
    /**
     * Count `days` (whole days of the site's calendar in `zone`) from the stored rows on the
     * readers' side, then keep their totals in one short transaction; late writes noted before
     * `startedAt` are done with.
     */
    async build(days: readonly Day[], hoursOf: (day: Day) => Range[], zone: string, startedAt: number): Promise<void> {
      const [v, c, k] = await Promise.all([
        visits.countForTotals(days, hoursOf),
        clicks.countForTotals(days),
        consents.countForTotals(days, hoursOf),
      ]);
      await sql.transaction(async (tx) => {
        for (const [i, day] of days.entries()) {
          // a day counted again: its month's totals are counted again too (monthTotals)
          const month = day.day.slice(0, 7);
          await tx.run('DELETE FROM stats_built WHERE day = ?', [month]);
          await visits.dropTotals(tx, month);
          await clicks.dropTotals(tx, month);
          await visits.keepTotals(tx, day.day, v[i]!.rows);
          await clicks.keepTotals(tx, day.day, c[i]!.rows);
          await consents.keepTotals(tx, day.day, k[i]!.rows);
          await tx.run('DELETE FROM stats_built WHERE day = ?', [day.day]);
          await tx.run('INSERT INTO stats_built (day, zone, start_at, end_at, built_at) VALUES (?, ?, ?, ?, ?)', [
            day.day,
            zone,
            day.start,
            day.end,
            startedAt,
          ]);
          await tx.run('DELETE FROM stats_dirty WHERE at >= ? AND at < ? AND noted_at <= ?', [day.start, day.end, startedAt]);
        }
      }, 'stats');
    },
    /**
     * Month totals (`day` = `YYYY-MM`) of a whole month whose days all have totals: the sums of
     * those days, so that a period of 12 months reads 11 months and a few days. With `days` (the
     * month's days), its filtered month totals too, counted from the rows on the readers' side
     * (visits-filtered.ts).
     */
    async buildMonth(month: Day, zone: string, startedAt: number, days?: readonly Day[]): Promise<void> {
      if (days) await keepFilteredMonth(sql, month, await countFilteredMonth(reads, days), startedAt);
      await sql.transaction(async (tx) => {
        await visits.monthTotals(tx, month.day);
        await clicks.monthTotals(tx, month.day);
        await tx.run('DELETE FROM stats_built WHERE day = ?', [month.day]);
        await tx.run('INSERT INTO stats_built (day, zone, start_at, end_at, built_at) VALUES (?, ?, ?, ?, ?)', [
          month.day,
          zone,
          month.start,
          month.end,
          startedAt,
        ]);
      }, 'stats');
    },
  };
}
