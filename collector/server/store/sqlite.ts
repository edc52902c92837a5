import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { textOf, type Engine, type Reads, type Sql, type Statement } from './sql';

/** SQLite (better-sqlite3): the writer on the collector's thread, the readers on a thread of their own. */

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
// the checkpoints too (WAL pages copied back into the file): here, beside the readers, instead of
// in the commit of whichever heartbeat passes the WAL's threshold
const checkpointer = new Database(workerData.path, { fileMustExist: true });
checkpointer.pragma('busy_timeout = 0');
setInterval(() => {
  try {
    checkpointer.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy now: the next second
  }
}, 1000);
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

/**
 * Reads of a SQLite file on a worker thread (started at once, again on the next read after a crash),
 * which also checkpoints the WAL every second (PASSIVE: it never waits for the writer, nor the writer
 * for it).
 */
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
      if (pending.size === 0) started.unref();
      if (!waiting) return;
      if (error) waiting.reject(Object.assign(new Error(error.message), { code: error.code }));
      else waiting.resolve(rows);
    });
    started.on('error', (error) => fail(error));
    started.on('exit', () => {
      if (worker === started) fail(new Error('the SQLite reader thread stopped'));
    });
    // kept up only while a read waits for it (then the process does too): an idle reader does
    // not keep a collector up that is otherwise done
    started.unref();
    return started;
  };
  const ask = <T>(method: 'all' | 'get', sql: string, params: readonly unknown[]) =>
    new Promise<T>((resolve, reject) => {
      worker ??= start();
      const id = next++;
      pending.set(id, { resolve: resolve as (rows: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ id, method, sql, params });
    });
  worker = start();
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

/** SQLite: synchronous statements (prepared once per text) behind promises; transactions run one at a time. */
export function sqliteSql(db: Database.Database): Sql {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: Statement): Database.Statement => {
    const text = textOf(sql);
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
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
    all: <T>(sql: Statement, params: readonly unknown[] = []) => Promise.resolve(rows(prepare(sql), params) as T[]),
    get: <T>(sql: Statement, params: readonly unknown[] = []) => Promise.resolve(rows(prepare(sql), params)[0] as T | undefined),
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
