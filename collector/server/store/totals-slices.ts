import { deleteInChunks } from './retention';
import type { Reads, Sql } from './sql';

/**
 * How the day totals' builder (totals-builder.ts) writes: a day's totals (every label of the day, a
 * page with a query each: 200,000 on the collector audit's site) and a month's (the sums of its
 * days'). PostgreSQL: in one transaction under the totals' lock (other writers lock only their own
 * rows; the month's `INSERT ... SELECT` runs in the server, not in the collector). SQLite: the writer
 * is the collector's own thread, and one transaction of a day's 150,000 rows or a month's
 * `INSERT ... SELECT` over 31 days of them held it (and every heartbeat) for seconds; so there a day
 * or month is unmarked first (reads count it from the rows or its days meanwhile), its old rows go
 * and its new ones come in short transactions of SLICE_ROWS rows, and it is marked built in the last.
 * Reads use a day's or a month's rows only when it is marked (`stats_built`, rollups.ts).
 */

/** Rows per SQLite transaction of the builder (a few ms each: heartbeats are answered between). */
export const SLICE_ROWS = 1000;
/** Rows per INSERT statement. */
const ROWS_PER_INSERT = 200;

/** One area's totals of one day: its table, its columns after `day`, and its rows (in that order). */
export interface DayTotals {
  table: string;
  columns: readonly string[];
  rows: ReadonlyArray<readonly unknown[]>;
}

/** How an area's month totals are summed from its day totals (the month's rows have `day` = `YYYY-MM`). */
export interface MonthSum {
  table: string;
  /** The two key columns after `day`: what a row counts (metric and label, page and selector). */
  key: readonly [string, string];
  /** Each summed column and its aggregate over the days. */
  sums: ReadonlyArray<readonly [string, string]>;
  /** Which day rows are summed ('' for all). */
  where: string;
}

const pause = () => new Promise((resolve) => setImmediate(resolve));

/** Insert rows `from` to `to` of `totals` as the day (or month) `day`, ROWS_PER_INSERT a statement. */
export async function insertTotals(tx: Sql, day: string, totals: DayTotals, from = 0, to = totals.rows.length): Promise<void> {
  const marks = `(${['?', ...totals.columns.map(() => '?')].join(', ')})`;
  for (let i = from; i < to; i += ROWS_PER_INSERT) {
    const part = totals.rows.slice(i, Math.min(i + ROWS_PER_INSERT, to));
    await tx.run(
      `INSERT INTO ${totals.table} (day, ${totals.columns.join(', ')}) VALUES ${part.map(() => marks).join(', ')}`,
      part.flatMap((row) => [day, ...row]),
    );
  }
}

/** Replace the rows of `day` in each table by `totals` (inside one transaction). */
export async function replaceAtOnce(tx: Sql, day: string, totals: readonly DayTotals[]): Promise<void> {
  for (const t of totals) {
    await tx.run(`DELETE FROM ${t.table} WHERE day = ?`, [day]);
    await insertTotals(tx, day, t);
  }
}

/**
 * SQLite: delete the rows of `days` (days or months) in `tables`, then insert `totals` as `day`, in
 * transactions of SLICE_ROWS rows with the requests that arrived meanwhile let in between. The
 * caller has unmarked them before and marks them after.
 */
export async function replaceInSlices(
  sql: Sql,
  drop: ReadonlyArray<{ table: string; day: string }>,
  day: string,
  totals: readonly DayTotals[],
): Promise<void> {
  for (const { table, day: dropped } of drop)
    await deleteInChunks(sql, { table, where: 'day = ?', params: [dropped] }, SLICE_ROWS);
  for (const t of totals)
    for (let i = 0; i < t.rows.length; i += SLICE_ROWS) {
      await sql.transaction((tx) => insertTotals(tx, day, t, i, Math.min(i + SLICE_ROWS, t.rows.length)));
      await pause();
    }
}

/** The day rows of `month` (`YYYY-MM`): every day it can have, as `day IN (...)` (an index seek each), and its parameters. */
function monthDays(month: string, spec: MonthSum): { sql: string; params: string[] } {
  const days = Array.from({ length: 31 }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
  return { sql: `day IN (${days.map(() => '?').join(', ')})${spec.where ? ` AND ${spec.where}` : ''}`, params: days };
}

/** The month totals of `month` from its days' rows in one statement (PostgreSQL, inside the builder's transaction). */
export async function sumMonthAtOnce(tx: Sql, month: string, spec: MonthSum): Promise<void> {
  const days = monthDays(month, spec);
  const [a, b] = spec.key;
  await tx.run(`DELETE FROM ${spec.table} WHERE day = ?`, [month]);
  await tx.run(
    `INSERT INTO ${spec.table} (day, ${a}, ${b}, ${spec.sums.map(([column]) => column).join(', ')})
     SELECT CAST(? AS TEXT), ${a}, ${b}, ${spec.sums.map(([, sum]) => sum).join(', ')} FROM ${spec.table}
     WHERE ${days.sql} GROUP BY ${a}, ${b}`,
    [month, ...days.params],
  );
}

/**
 * SQLite: the month totals of `month` (already unmarked and without rows) summed on the readers'
 * side a slice of SLICE_ROWS keys at a time (the first key of each slice from one read, each slice a
 * range of the primary key in every day), each slice inserted in a transaction of its own.
 */
export async function sumMonthInSlices(sql: Sql, reads: Reads, month: string, spec: MonthSum): Promise<void> {
  const days = monthDays(month, spec);
  const [a, b] = spec.key;
  const starts = await reads.all<{ a: string; b: string }>(
    `SELECT a, b FROM (
       SELECT ${a} AS a, ${b} AS b, ROW_NUMBER() OVER (ORDER BY ${a}, ${b}) AS rn FROM ${spec.table} WHERE ${days.sql}
       GROUP BY ${a}, ${b}
     ) s WHERE rn % ${SLICE_ROWS} = 1 ORDER BY a, b`,
    days.params,
  );
  const columns = [a, b, ...spec.sums.map(([column]) => column)];
  for (const [i, start] of starts.entries()) {
    const next = starts[i + 1];
    const rows = await reads.all<Record<string, unknown>>(
      `SELECT ${a}, ${b}, ${spec.sums.map(([column, sum]) => `${sum} AS ${column}`).join(', ')} FROM ${spec.table}
       WHERE ${days.sql} AND (${a}, ${b}) >= (?, ?)${next ? ` AND (${a}, ${b}) < (?, ?)` : ''} GROUP BY ${a}, ${b}`,
      [...days.params, start.a, start.b, ...(next ? [next.a, next.b] : [])],
    );
    const totals = { table: spec.table, columns, rows: rows.map((row) => columns.map((column) => row[column])) };
    await sql.transaction((tx) => insertTotals(tx, month, totals));
    await pause();
  }
}
