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
export async function runRetention(
  sql: Sql,
  steps: readonly RetentionStep[],
  wait: boolean,
): Promise<Record<string, number> | null> {
  const counts: Record<string, number> = Object.fromEntries(steps.map((s) => [s.name, 0]));
  if (sql.engine === 'postgres')
    return sql.transaction(
      async (tx) => {
        // (a lock taken by the transaction itself is held by this session: tryLock answers true)
        if (!(await tx.tryLock('retention'))) return null;
        for (const step of steps)
          counts[step.name]! += await tx.run(`DELETE FROM ${step.table} WHERE ${step.where}`, step.params);
        return counts;
      },
      wait ? 'retention' : undefined,
    );
  for (const step of steps) counts[step.name]! += await deleteInChunks(sql, step);
  return counts;
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
