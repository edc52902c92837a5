import type Database from 'better-sqlite3';
import { textOf, type Engine, type Sql, type Statement } from './sql';
import { sqliteReader } from './sqlite-reader';

/**
 * SQLite (better-sqlite3): the writer on the collector's thread; the readers on threads of their own
 * (sqlite-reader.ts).
 */

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
