import pg from 'pg';
import { textOf, type Engine, type Reads, type Sql, type Statement } from './sql';

/** `?` placeholders as PostgreSQL's `$n` (our SQL has no `?` inside string literals). */
const numbered = new Map<string, string>();
function toPostgres(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

/** BIGINT (times in ms, counts) and NUMERIC (sums) as JavaScript numbers: ours stay far below 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A lock's name as the 64-bit key PostgreSQL's advisory locks take. */
const LOCK_KEY = "hashtextextended('pagepulse:' || ?, 0)";

type Queryable = pg.Pool | pg.PoolClient;

/** What `pg` is given: a prepared statement goes by its name (pg parses it once per connection). */
const query = (sql: Statement, params: readonly unknown[]): pg.QueryConfig => ({
  text: toPostgres(textOf(sql)),
  values: params as unknown[],
  ...(typeof sql === 'string' ? {} : { name: sql.name }),
});

function postgresOn(client: Queryable): Omit<Sql, 'transaction' | 'close'> {
  return {
    engine: 'postgres',
    all: async <T>(sql: Statement, params: readonly unknown[] = []) => (await client.query(query(sql, params))).rows as T[],
    get: async <T>(sql: Statement, params: readonly unknown[] = []) =>
      (await client.query(query(sql, params))).rows[0] as T | undefined,
    run: async (sql, params = []) => (await client.query(query(sql, params))).rowCount ?? 0,
    exec: async (sql) => void (await client.query(sql)),
    tryLock: async (name) =>
      (await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${toPostgres(LOCK_KEY)}) AS locked`, [name]))
        .rows[0]!.locked,
  };
}

/** How long one statement of the readers' pool may run on PostgreSQL before the server stops it. */
export const READ_TIMEOUT_MS = 30_000;

/**
 * Session settings of every connection: no JIT compilation. The collector's statements are short
 * and many; PostgreSQL's estimate for a correlated one (the consent statistics) passes the JIT
 * threshold and the compilation took 414 ms of a 523 ms read whose plan ran in 6 ms.
 */
const SESSION_OPTIONS = '-c jit=off';

/**
 * The readers' connection also without parallel workers: it is there so that the readers take one
 * of the database server's cores at most (below), and a parallel plan took three. On two cores the
 * workers only fought the heartbeats and each other: a filtered year (page and browser at 1 M page
 * views) took 0.87 to 1.14 s with them and 0.73 to 0.75 s without.
 */
const READER_OPTIONS = `${SESSION_OPTIONS} -c max_parallel_workers_per_gather=0`;

/** PostgreSQL through a pool of `max` connections (PAGEPULSE_DATABASE_URL). */
export function postgresSql(url: string, max = 10): Sql {
  const pool = new pg.Pool({ connectionString: url, max, types: TYPES, options: SESSION_OPTIONS });
  // an idle connection that breaks (a database restart) is dropped from the pool, not a crash
  pool.on('error', () => {});
  return {
    ...postgresOn(pool),
    async transaction(work, lock) {
      const client = await pool.connect();
      // a checked-out client has no listener of the pool's: a connection lost between two statements
      // (PostgreSQL stopped) would be an uncaught 'error'; the failing statement reports it instead,
      // and the broken client leaves the pool on release
      let lost: Error | undefined;
      const onLost = (error: Error): void => void (lost = error);
      client.on('error', onLost);
      const tx: Sql = {
        ...postgresOn(client),
        transaction: (inner) => inner(tx),
        close: () => Promise.resolve(),
      };
      try {
        // the lock in BEGIN's round trip (the same key as LOCK_KEY's): a heartbeat's page view takes one
        await client.query(
          lock
            ? `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended(${client.escapeLiteral(`pagepulse:${lock}`)}, 0))`
            : 'BEGIN',
        );
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.off('error', onLost);
        client.release(lost);
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The readers' pool on PostgreSQL: ONE connection per process, each statement stopped after
 * READ_TIMEOUT_MS. The readers' statements (aggregates, the CSV's pages) then run one at a time,
 * so they take at most one of the database server's cores from the
 * heartbeats: with three, at 1 M page views on two cores, the heartbeats' p99 was 136 to 158 ms while
 * the dashboard, the overlay and the CSV read; with one, 58 and 84 ms, and the readers got as much
 * done (BENCHMARKS.md). Several admins' reads queue behind each other, statement by statement.
 */
export function postgresReader(url: string, max = 1): Reads & { close(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types: TYPES,
    statement_timeout: READ_TIMEOUT_MS,
    options: READER_OPTIONS,
  });
  pool.on('error', () => {});
  const on = postgresOn(pool);
  return { all: on.all, get: on.get, parallel: max, close: () => pool.end() };
}

/** An open PostgreSQL database: the writers' pool and the readers' pool. */
export function postgresEngine(url: string): Engine {
  const sql = postgresSql(url);
  const reader = postgresReader(url);
  return {
    sql,
    reads: reader,
    async close() {
      await Promise.all([reader.close(), sql.close()]);
    },
  };
}
