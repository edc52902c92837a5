import { builtDays, dayTable, indexTable, type Day, type Range } from './rollups';
import type { Reads, Sql } from './sql';
import type { DayTotals } from './totals-slices';

/**
 * The consent statistics (`stats_consents`): per day of the site's calendar (`hour` -1) and per
 * hour of it, the visitors who decided and how many of them allow each category at the end of it.
 * A visitor's state is the one kept with their latest record (consents.ts).
 */

/** Deciding visitors and how many of them allowed each category (1..4). */
export interface Decisions {
  deciders: number;
  on: [number, number, number, number];
}

/** The consents area's statistics on an open database. */
export function consentTotals(reads: Reads) {
  /**
   * Deciders per range: the latest record of each session in the range, its state summed. The
   * latest is found per record by the session's index (a correlated LIMIT 1: one index probe each,
   * whatever the planner thinks of the range table).
   */
  const countRanges = async (ranges: readonly Range[]) => {
    if (ranges.length === 0) return [];
    const count = rangesSql(ranges);
    const rows = await reads.all<{ i: number; deciders: number; on1: number; on2: number; on3: number; on4: number }>(
      `${count.head} ${count.body}`,
      count.params,
    );
    const byIndex = new Map(rows.map((r) => [r.i, r]));
    return ranges.map((_, i): Decisions => {
      const r = byIndex.get(i);
      return {
        deciders: Number(r?.deciders ?? 0),
        on: [Number(r?.on1 ?? 0), Number(r?.on2 ?? 0), Number(r?.on3 ?? 0), Number(r?.on4 ?? 0)],
      };
    });
  };
  const sum = (a: Decisions, b: Decisions): Decisions => ({
    deciders: a.deciders + b.deciders,
    on: [a.on[0] + b.on[0], a.on[1] + b.on[1], a.on[2] + b.on[2], a.on[3] + b.on[3]],
  });
  const NONE: Decisions = { deciders: 0, on: [0, 0, 0, 0] };

  return {
    /** Deciders and their states over each range (counted from the stored records). */
    decisionsIn: countRanges,
    /** Deciders per day of `days` (day totals where built) and over all of them. */
    async decisionsPerDay(days: readonly Day[]): Promise<Map<string, Decisions>> {
      const { built, raw } = await builtDays(reads, days);
      const out = new Map<string, Decisions>(days.map((d) => [d.day, NONE]));
      if (built.length > 0)
        for (const r of await reads.all<{ day: string; deciders: number; on1: number; on2: number; on3: number; on4: number }>(
          'SELECT day, deciders, on1, on2, on3, on4 FROM stats_consents WHERE day >= ? AND day <= ? AND hour = -1',
          [built[0]!.day, built[built.length - 1]!.day],
        ))
          out.set(r.day, { deciders: Number(r.deciders), on: [Number(r.on1), Number(r.on2), Number(r.on3), Number(r.on4)] });
      const counted = await countRanges(raw);
      raw.forEach((day, i) => out.set(day.day, counted[i]!));
      return out;
    },
    /** Deciders per hour of one day (day totals where built). */
    async decisionsPerHour(day: Day, hours: readonly Range[]): Promise<Decisions[]> {
      const { built } = await builtDays(reads, [day]);
      if (built.length === 0) return countRanges(hours);
      const rows = await reads.all<{ hour: number; deciders: number; on1: number; on2: number; on3: number; on4: number }>(
        'SELECT hour, deciders, on1, on2, on3, on4 FROM stats_consents WHERE day = ? AND hour >= 0',
        [day.day],
      );
      const byHour = new Map(rows.map((r) => [Number(r.hour), r]));
      return hours.map((_, i) => {
        const r = byHour.get(i);
        return r ? { deciders: Number(r.deciders), on: [Number(r.on1), Number(r.on2), Number(r.on3), Number(r.on4)] } : NONE;
      });
    },
    sum,
    /** The day totals of `days` (the day and its hours), counted from the stored records. */
    async countForTotals(days: readonly Day[], hoursOf: (day: Day) => Range[]) {
      const whole = await countRanges(days);
      const out: Array<{ day: string; rows: Array<[number, Decisions]> }> = [];
      for (const [i, day] of days.entries()) {
        const rows: Array<[number, Decisions]> = [[-1, whole[i]!]];
        if (whole[i]!.deciders > 0)
          (await countRanges(hoursOf(day))).forEach((h, hour) => h.deciders > 0 && rows.push([hour, h]));
        out.push({ day: day.day, rows });
      }
      return out;
    },
    /**
     * PostgreSQL, inside the builder's transaction: the totals of `days` (those of countForTotals:
     * each day, hour -1, and its hours, each with deciders) counted and inserted in the database server.
     */
    async keepForTotals(tx: Sql, days: readonly Day[], hoursOf: (day: Day) => Range[]): Promise<void> {
      // the days and their hours in one table of ranges (an hour has deciders only if its day has)
      const ranges = [
        ...days.map((day) => ({ range: day as Range, day: day.day, hour: -1 })),
        ...days.flatMap((day) => hoursOf(day).map((range, hour) => ({ range, day: day.day, hour }))),
      ];
      if (ranges.length === 0) return;
      const count = rangesSql(ranges.map((r) => r.range));
      const named = indexTable(
        'n',
        ranges.map((r, i) => [i, r.day, r.hour]),
      );
      await tx.run(
        `${count.head}, ${named.sql} INSERT INTO stats_consents (day, hour, deciders, on1, on2, on3, on4)
         SELECT n.day, n.k, c.deciders, COALESCE(c.on1, 0), COALESCE(c.on2, 0), COALESCE(c.on3, 0), COALESCE(c.on4, 0)
         FROM (${count.body}) c JOIN n ON n.i = c.i`,
        [...count.params, ...named.params],
      );
    },
    /** One day's totals as the builder writes them (totals-slices.ts): the hours (and the day, -1) with deciders. */
    dayTotals: (rows: ReadonlyArray<readonly [number, Decisions]>): DayTotals => ({
      table: 'stats_consents',
      columns: ['hour', 'deciders', 'on1', 'on2', 'on3', 'on4'],
      rows: rows.filter(([, d]) => d.deciders > 0).map(([hour, d]) => [hour, d.deciders, ...d.on]),
    }),
    earliest: async () => (await reads.get<{ at: number | null }>('SELECT MIN(at) AS at FROM cookie_consents'))?.at ?? null,

    /** Drop every day total (the time zone changed). */
    clearTotals: (tx: Sql) => tx.run('DELETE FROM stats_consents'),
  };
}

/**
 * countRanges' statement (`ranges` not empty): its `WITH` list and its query (per range with deciders: `i`, `deciders`, `on1` to `on4`), and the list's parameters.
 */
function rangesSql(ranges: readonly Range[]) {
  const d = dayTable(ranges);
  return {
    head: `WITH ${d.sql}`,
    body: `SELECT d.i AS i, COUNT(*) AS deciders, SUM(c.s1) AS on1, SUM(c.s2) AS on2, SUM(c.s3) AS on3, SUM(c.s4) AS on4
       FROM d JOIN cookie_consents c ON c.at >= d.s AND c.at < d.e
       WHERE c.id = (SELECT l.id FROM cookie_consents l WHERE l.session_id = c.session_id AND l.at >= d.s AND l.at < d.e
         ORDER BY l.at DESC, l.id DESC LIMIT 1)
       GROUP BY d.i`,
    params: d.params,
  };
}
