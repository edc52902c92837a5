import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * The collector's two storage engines behind one small asynchronous interface: SQLite (better-sqlite3,
 * the embedded default, one process) and PostgreSQL (`pg`, PAGEPULSE_DATABASE_URL, any number of
 * processes). Queries are written once with `?` placeholders (turned into `$1, $2...` for
 * PostgreSQL); where the engines differ, the caller asks `engine`.
 */
export interface Sql {
  engine: 'sqlite' | 'postgres';
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** A statement without rows; answers how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Statements without parameters, several in one text (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * `work` in one transaction on one connection (its statements go through `tx`); rolled back when
   * it throws. `lock` names a lock held until the end: on PostgreSQL an advisory transaction lock,
   * so other processes doing the same work wait; SQLite has one process and one connection.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>, lock?: string): Promise<T>;
  /**
   * Inside a transaction: take the named lock if nobody holds it (PostgreSQL's
   * pg_try_advisory_xact_lock, released at the end of the transaction); false when another process
   * holds it. Always true on SQLite.
   */
  tryLock(name: string): Promise<boolean>;
  close(): Promise<void>;
}

/** SQLite: synchronous statements (prepared once per text) behind promises; transactions run one at a time. */
export function sqliteSql(db: Database.Database): Sql {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  // one connection: while a transaction awaits, other requests' statements wait for its end, so
  // they neither join it nor start a transaction inside it
  let open: Promise<unknown> = Promise.resolve();
  let inTransaction = false;
  const inside: Omit<Sql, 'transaction' | 'close'> = {
    engine: 'sqlite',
    all: <T>(sql: string, params: readonly unknown[] = []) => Promise.resolve(prepare(sql).all(...params) as T[]),
    get: <T>(sql: string, params: readonly unknown[] = []) => Promise.resolve(prepare(sql).get(...params) as T | undefined),
    run: (sql, params = []) => Promise.resolve(prepare(sql).run(...params).changes),
    exec: (sql) => Promise.resolve(void db.exec(sql)),
    tryLock: () => Promise.resolve(true),
  };
  const tx: Sql = { ...inside, transaction: (work) => work(tx), close: () => Promise.resolve() };
  // each waits in its own loop and then acts synchronously: no other statement can slip in between
  return {
    engine: 'sqlite',
    async all(sql, params) {
      while (inTransaction) await open.catch(() => {});
      return inside.all(sql, params);
    },
    async get(sql, params) {
      while (inTransaction) await open.catch(() => {});
      return inside.get(sql, params);
    },
    async run(sql, params) {
      while (inTransaction) await open.catch(() => {});
      return inside.run(sql, params);
    },
    async exec(sql) {
      while (inTransaction) await open.catch(() => {});
      return inside.exec(sql);
    },
    tryLock: inside.tryLock,
    async transaction(work) {
      while (inTransaction) await open.catch(() => {});
      db.exec('BEGIN IMMEDIATE');
      inTransaction = true;
      const running = (async () => {
        try {
          const result = await work(tx);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        } finally {
          inTransaction = false;
        }
      })();
      open = running;
      return running;
    },
    close: () => Promise.resolve(void db.close()),
  };
}

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

function postgresOn(client: Queryable): Omit<Sql, 'transaction' | 'close'> {
  return {
    engine: 'postgres',
    all: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await client.query(toPostgres(sql), params as unknown[])).rows as T[],
    get: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await client.query(toPostgres(sql), params as unknown[])).rows[0] as T | undefined,
    run: async (sql, params = []) => (await client.query(toPostgres(sql), params as unknown[])).rowCount ?? 0,
    exec: async (sql) => void (await client.query(sql)),
    tryLock: async (name) =>
      (await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${toPostgres(LOCK_KEY)}) AS locked`, [name]))
        .rows[0]!.locked,
  };
}

/** PostgreSQL through a pool of `max` connections (PAGEPULSE_DATABASE_URL). */
export function postgresSql(url: string, max = 10): Sql {
  const pool = new pg.Pool({ connectionString: url, max, types: TYPES });
  // an idle connection that breaks (a database restart) is dropped from the pool, not a crash
  pool.on('error', () => {});
  return {
    ...postgresOn(pool),
    async transaction(work, lock) {
      const client = await pool.connect();
      const tx: Sql = {
        ...postgresOn(client),
        transaction: (inner) => inner(tx),
        close: () => Promise.resolve(),
      };
      try {
        await client.query('BEGIN');
        if (lock) await client.query(`SELECT pg_advisory_xact_lock(${toPostgres(LOCK_KEY)})`, [lock]);
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** One schema change; `sql` per engine where their types differ. */
export interface Migration {
  version: number;
  name: string;
  sql: (engine: Sql['engine']) => string;
  /** What SQL alone cannot do (a parser in JavaScript), run once after `sql` in the same transaction. */
  then?: (tx: Sql) => Promise<void>;
}

/**
 * Apply the migrations a database has not had yet, in order, each in its own transaction with its
 * row in `schema_migrations`. On PostgreSQL processes starting together wait for each other (a lock).
 */
export async function migrate(sql: Sql, migrations: readonly Migration[], now: number): Promise<void> {
  await sql.transaction(async (tx) => {
    // inside the lock: two PostgreSQL processes creating the same table at once can collide
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    const done = new Set((await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql(tx.engine));
      await migration.then?.(tx);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        now,
      ]);
    }
  }, 'migrations');
}
