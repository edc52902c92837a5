import type { Sql } from './sql';

/** One deletion of the retention run: the rows of `table` that `where` names (its `?` filled by `params`). */
export interface RetentionStep {
  /** How the count is reported (`pageViews`, `formConsents`...). */
  name: string;
  table: string;
  where: string;
  params: readonly unknown[];
  /** SQLite: the columns that name a row, for a table without rowid (its primary key); `rowid` by default. */
  key?: string;
}

/**
 * A step of the retention run that keeps counts but not their labels: the rows of `table` that
 * `where` names are summed per day (and what else `statements` groups by) into one row without a
 * label, then deleted. Day totals keep no page address, referring path or selector past the
 * retention of the rows they were counted from, and still add up (docs/collector.md "Retention").
 */
export interface CollapseStep {
  name: string;
  table: string;
  where: string;
  params: readonly unknown[];
  /** The upsert of the sums and the deletion of the rows `where` names (each with `params`). */
  statements: (where: string) => readonly [string, string];
  /** The first day the next run looks at (`stats_unlabelled`): every row before it is done. */
  through: string;
}

export type Step = RetentionStep | CollapseStep;
const collapses = (step: Step): step is CollapseStep => 'statements' in step;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The day totals' rows (`day`: a day `YYYY-MM-DD` or a month `YYYY-MM` of the site's calendar) that
 * ended before `before` in every time zone: a day ends at most 36 hours after its UTC date began
 * (UTC-12), so the days two UTC dates before, and the months before that day's month.
 */
export function totalsBefore(before: number): { sql: string; params: [string, string] } {
  const day = new Date(before - 2 * DAY_MS).toISOString().slice(0, 10);
  // `day < ?` first: a range of the primary key (day, ...), not a scan of the table
  return { sql: '(day < ? AND (length(day) = 10 OR day < ?))', params: [day, day.slice(0, 7)] };
}

/**
 * A collapse of `table`'s rows that `where` names among those `totalsBefore(before)` names, from the
 * day the last run got to (`stats_unlabelled`) on: a run reads about a month of old rows, not every
 * year the site has (the SQLite hourly run scanned them on the collector's thread).
 */
export function collapseStep(
  name: string,
  table: string,
  where: string,
  before: number,
  statements: CollapseStep['statements'],
): CollapseStep {
  const old = totalsBefore(before);
  return {
    name,
    table,
    where: `day >= (SELECT COALESCE(MAX(through), '') FROM stats_unlabelled WHERE tbl = '${table}') AND ${old.sql} AND ${where}`,
    params: old.params,
    statements,
    // the month of the bound: its month row (and its days before the bound, done) looked at again
    through: old.params[1],
  };
}

/**
 * Erasure (inside its transaction): the rows whose `where(list)` names `values` made unlabelled by
 * `statements` (a collapse step's), at most a hundred values to a statement.
 */
export async function unlabel(
  tx: Sql,
  statements: CollapseStep['statements'],
  where: (list: string) => string,
  values: readonly string[],
): Promise<void> {
  for (let i = 0; i < values.length; i += 100) {
    const part = values.slice(i, i + 100);
    for (const statement of statements(where(part.map(() => '?').join(', ')))) await tx.run(statement, part);
  }
}

/** The collapse's mark: the next run of `step` starts at its `through`. */
const markOf = (step: CollapseStep) =>
  [
    `INSERT INTO stats_unlabelled (tbl, through) VALUES ('${step.table}', ?)
     ON CONFLICT (tbl) DO UPDATE SET through = excluded.through`,
    [step.through],
  ] as const;

/** Rows deleted per statement on SQLite: a few milliseconds each, so heartbeats are answered between them. */
const CHUNK = 2000;

/**
 * Run the retention steps in order; answers the rows deleted per step name, or null when another
 * process runs them now (PostgreSQL, `wait` false).
 *
 * PostgreSQL: one transaction holding the advisory lock `retention` (one process at a time; with
 * `wait`, this one waits for its turn); a large deletion there does not hold other writers, which
 * lock only their own rows. SQLite (one process, one writer): each step in chunks of CHUNK rows,
 * one short transaction each, so a first run that deletes a year of rows does not stop the
 * collector while it does.
 */
export async function runRetention(sql: Sql, steps: readonly Step[], wait: boolean): Promise<Record<string, number> | null> {
  const counts: Record<string, number> = Object.fromEntries(steps.map((s) => [s.name, 0]));
  if (sql.engine === 'postgres')
    return sql.transaction(
      async (tx) => {
        // (a lock taken by the transaction itself is held by this session: tryLock answers true)
        if (!(await tx.tryLock('retention'))) return null;
        for (const step of steps)
          if (collapses(step)) {
            const [sums, deletion] = step.statements(step.where);
            await tx.run(sums, step.params);
            counts[step.name]! += await tx.run(deletion, step.params);
            await tx.run(...markOf(step));
          } else counts[step.name]! += await tx.run(`DELETE FROM ${step.table} WHERE ${step.where}`, step.params);
        return counts;
      },
      wait ? 'retention' : undefined,
    );
  for (const step of steps) counts[step.name]! += await (collapses(step) ? collapseByDay(sql, step) : deleteInChunks(sql, step));
  return counts;
}

/**
 * SQLite: a collapse one day at a time, one short transaction each (a day's labels are a few
 * hundred rows on most sites); answers the rows replaced.
 */
async function collapseByDay(sql: Sql, step: CollapseStep): Promise<number> {
  let total = 0;
  const [sums, deletion] = step.statements(`${step.where} AND day = ?`);
  for (;;) {
    const next = await sql.get<{ day: string }>(`SELECT day FROM ${step.table} WHERE ${step.where} LIMIT 1`, step.params);
    if (!next) {
      await sql.run(...markOf(step));
      return total;
    }
    const params = [...step.params, next.day];
    total += await sql.transaction(async (tx) => {
      await tx.run(sums, params);
      return tx.run(deletion, params);
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * SQLite: delete the rows of `table` that `where` names in chunks of `chunk` rows, one short
 * transaction each, letting the requests that arrived meanwhile in between; answers the rows
 * deleted. `key` names a row (`rowid` by default; a table without rowid gives its primary key).
 */
export async function deleteInChunks(
  sql: Sql,
  { table, where, params, key = 'rowid' }: Omit<RetentionStep, 'name'>,
  chunk = CHUNK,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await sql.transaction((tx) =>
      tx.run(`DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${chunk})`, params),
    );
    total += deleted;
    if (deleted < chunk) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
