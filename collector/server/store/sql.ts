/**
 * The collector's two storage engines behind one small asynchronous interface: SQLite (better-sqlite3,
 * the embedded default, one process) and PostgreSQL (`pg`, PAGEPULSE_DATABASE_URL, any number of
 * processes). Queries are written once with `?` placeholders (turned into `$1, $2...` for
 * PostgreSQL); where the engines differ, the caller asks `engine`. Private to the store: the
 * features see the data areas (store/index.ts), never SQL.
 */
import { createHash } from 'node:crypto';

/**
 * A statement the writers run many times a second with one fixed text (a heartbeat's). PostgreSQL
 * gets it as a named prepared statement: parsed and planned once per connection, then only bound
 * and run (unnamed, every call was parsed, analysed and planned again: more than half of a beat's
 * server CPU, see docs/collector.md). SQLite prepares every text once anyway. Only for texts that
 * never change with the values: each connection keeps every one it was given.
 */
export interface Prepared {
  readonly text: string;
  /** The statement's name on a PostgreSQL connection: from its text, so one name is never two texts. */
  readonly name: string;
}

export const prepared = (text: string): Prepared => ({
  text,
  name: `pp_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`,
});

/**
 * The lock of one visitor session's read-then-write transactions (its consent state, its click caps,
 * its visit of a page view): on PostgreSQL two of them at once each read their own snapshot and
 * wrote past the other's. Per session, so other sessions never wait for it.
 */
export const sessionLock = (session: string): string => `session:${session}`;

/** A statement's text, given as text or prepared. */
export type Statement = string | Prepared;
export const textOf = (statement: Statement): string => (typeof statement === 'string' ? statement : statement.text);

export interface Sql {
  engine: 'sqlite' | 'postgres';
  all<T>(sql: Statement, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: Statement, params?: readonly unknown[]): Promise<T | undefined>;
  /** A statement without rows; answers how many rows it changed. */
  run(sql: Statement, params?: readonly unknown[]): Promise<number>;
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
 * thread that answers heartbeats. SQLite: worker threads, each with a read-only connection of its own
 * (WAL lets them read while the main thread writes); PostgreSQL: a small pool of its own, so readers
 * cannot take every connection from the writers. Sees what is committed.
 */
export interface Reads {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** How many statements run at once (SQLite's reader threads); one when absent. */
  readonly parallel?: number;
}

/** One open database: the writers' side and the readers' side. */
export interface Engine {
  sql: Sql;
  reads: Reads;
  close(): Promise<void>;
}
