import Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import pg from 'pg';

/**
 * The collector's two storage engines behind one small asynchronous interface: SQLite (better-sqlite3,
 * the embedded default, one process) and PostgreSQL (`pg`, PAGEPULSE_DATABASE_URL, any number of
 * processes). Queries are written once with `?` placeholders (turned into `$1, $2...` for
 * PostgreSQL); where the engines differ, the caller asks `engine`. Private to the store: the
 * features see the data areas (store/index.ts), never SQL.
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

/**
 * Where the long reads go (aggregates, the consent log and its export): never on the connection or
 * thread that answers heartbeats. SQLite: a worker thread with a read-only connection of its own
 * (WAL lets it read while the main thread writes); PostgreSQL: a small pool of its own, so readers
 * cannot take every connection from the writers. Sees what is committed.
 */
export interface Reads {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
}

/** One open database: the writers' side and the readers' side. */
export interface Engine {
  sql: Sql;
  reads: Reads;
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
  const rows = (statement: Database.Statement, params: readonly unknown[]) =>
    statement.reader ? statement.all(...params) : (statement.run(...params), []);
  const inside: Omit<Sql, 'transaction' | 'close'> = {
    engine: 'sqlite',
    all: <T>(sql: string, params: readonly unknown[] = []) => Promise.resolve(rows(prepare(sql), params) as T[]),
    get: <T>(sql: string, params: readonly unknown[] = []) => Promise.resolve(rows(prepare(sql), params)[0] as T | undefined),
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

/**
 * The SQLite reader thread: a read-only connection to the same file in a worker, one statement at a
 * time. Written as plain CommonJS text (the compiled collector is one ES module; a second entry file
 * would need a second build); the driver's path comes from the main thread.
 */
const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, method, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    const rows = method === 'get' ? statement.get(...params) : statement.all(...params);
    parentPort.postMessage({ id, rows });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

/** Reads of a SQLite file on a worker thread (started on the first read, again after a crash). */
export function sqliteReader(path: string): Reads & { close(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let worker: Worker | null = null;
  let next = 0;
  const pending = new Map<number, { resolve: (rows: unknown) => void; reject: (error: Error) => void }>();
  const fail = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = null;
  };
  const start = (): Worker => {
    const started = new Worker(READER_SOURCE, { eval: true, workerData: { driver, path } });
    started.on('message', ({ id, rows, error }: { id: number; rows?: unknown; error?: { message: string; code?: string } }) => {
      const waiting = pending.get(id);
      pending.delete(id);
      if (!waiting) return;
      if (error) waiting.reject(Object.assign(new Error(error.message), { code: error.code }));
      else waiting.resolve(rows);
    });
    started.on('error', (error) => fail(error));
    started.on('exit', () => {
      if (worker === started) fail(new Error('the SQLite reader thread stopped'));
    });
    // a collector that is otherwise done does not stay up for it
    started.unref();
    return started;
  };
  const ask = <T>(method: 'all' | 'get', sql: string, params: readonly unknown[]) =>
    new Promise<T>((resolve, reject) => {
      worker ??= start();
      const id = next++;
      pending.set(id, { resolve: resolve as (rows: unknown) => void, reject });
      worker.postMessage({ id, method, sql, params });
    });
  return {
    all: (sql, params = []) => ask('all', sql, params),
    get: (sql, params = []) => ask('get', sql, params),
    async close() {
      const stopping = worker;
      worker = null;
      fail(new Error('the store is closed'));
      await stopping?.terminate();
    },
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

/** How long one statement of the readers' pool may run on PostgreSQL before the server stops it. */
const READ_TIMEOUT_MS = 30_000;

/**
 * Session settings of every connection: no JIT compilation. The collector's statements are short
 * and many; PostgreSQL's estimate for a correlated one (the consent statistics) passes the JIT
 * threshold and the compilation took 414 ms of a 523 ms read whose plan ran in 6 ms.
 */
const SESSION_OPTIONS = '-c jit=off';

/** PostgreSQL through a pool of `max` connections (PAGEPULSE_DATABASE_URL). */
export function postgresSql(url: string, max = 10): Sql {
  const pool = new pg.Pool({ connectionString: url, max, types: TYPES, options: SESSION_OPTIONS });
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

/** The readers' pool on PostgreSQL: 3 connections, each statement stopped after READ_TIMEOUT_MS. */
export function postgresReader(url: string, max = 3): Reads & { close(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types: TYPES,
    statement_timeout: READ_TIMEOUT_MS,
    options: SESSION_OPTIONS,
  });
  pool.on('error', () => {});
  const on = postgresOn(pool);
  return { all: on.all, get: on.get, close: () => pool.end() };
}

/** An open SQLite database: writes on this thread, reads on the reader thread (in memory: both here). */
export function sqliteEngine(db: Database.Database, path: string): Engine {
  const sql = sqliteSql(db);
  const reader = path === ':memory:' ? null : sqliteReader(path);
  return {
    sql,
    reads: reader ?? { all: sql.all, get: sql.get },
    async close() {
      await reader?.close();
      await sql.close();
    },
  };
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
