import { READ_TIMEOUT_MS } from './postgres';
import type { Sql } from './sql';

/**
 * PostgreSQL: the bound on each statement of a day-totals build. The build counts in the database
 * server (`INSERT ... SELECT`, each area's keepForTotals and the filtered month totals) on a
 * connection of the writers' pool, which has no statement timeout (its other statements are the
 * heartbeats' short ones); without a bound of its own, one runaway count held its transaction, the
 * totals' lock and the rows it had deleted for as long as it ran.
 */

/**
 * Ten times the readers' bound (5 minutes), and under the builder's ten-minute period. Not the
 * readers' own 30 s: a day the readers' side cannot count in 30 s is readable only once the builder
 * has kept its totals, so the builder must be given longer than they are, or such a day, and every
 * day after it (the built days stay one unbroken run), would never be built and never be read. The
 * bound is for a count gone wrong (a bad plan, a lock held elsewhere), not for a large day; the build
 * runs in the background, and heartbeats never wait on its locks (totals-stall.postgres.test.ts).
 */
export const TOTALS_TIMEOUT_MS = 10 * READ_TIMEOUT_MS;

/** SQLSTATE query_canceled: a statement stopped by statement_timeout (or an administrator's pg_cancel_backend). */
export const CANCELLED = '57014';

/**
 * `work` in one transaction under the totals' lock, each of its statements bounded to `timeoutMs`.
 * SET LOCAL, so the setting ends with the transaction and the pooled connection goes back to the
 * heartbeats without it; after the lock, so waiting for another process's build (itself bounded) is
 * not cut short. A statement past the bound is cancelled and the whole transaction rolled back:
 * nothing of it is kept (what it unmarked stays marked, with its old totals), and the error names
 * `what` once; the builder's next run (jobs.ts, every ten minutes) counts it again.
 */
export async function boundedTotals<T>(sql: Sql, timeoutMs: number, what: string, work: (tx: Sql) => Promise<T>): Promise<T> {
  const ms = Math.max(1, Math.floor(timeoutMs));
  try {
    return await sql.transaction(async (tx) => {
      await tx.exec(`SET LOCAL statement_timeout = ${ms}`);
      return work(tx);
    }, 'stats');
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== CANCELLED) throw error;
    const message =
      `${what}: a statement ran past the build's statement timeout of ${ms} ms and was cancelled ` +
      `(${(error as Error).message}); rolled back, nothing of it kept; counted again at the next run`;
    throw Object.assign(new Error(message, { cause: error }), { code: CANCELLED });
  }
}
