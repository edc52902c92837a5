import Database from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { migrations } from '../../collector/server/store';
import { migrate } from '../../collector/server/store/migrate';
import { postgresEngine } from '../../collector/server/store/postgres';
import type { Reads, Sql } from '../../collector/server/store/sql';
import { sqliteSql } from '../../collector/server/store/sqlite';
import type { Visitor } from '../../collector/server/store/types';
import { visitsStore } from '../../collector/server/store/visits';
import { describeAgent } from '../../collector/server/visitor/agent';
import { pageAddress } from '../../collector/server/visitor/page';
import { sourceOf } from '../../collector/server/visitor/sources';
import { newPostgresDatabase } from './collector';

// The store below the collector, for tests that drive it directly (no HTTP): its schema as a
// collector opens it, and visitors by number.

/** The collector's schema on `sql`, every migration, with the visitor feature's parsers. */
export const migrateStore = (sql: Sql) =>
  migrate(sql, migrations({ agent: describeAgent, page: pageAddress, source: sourceOf }), 0);

/** A SQLite database in memory with the collector's schema: the connection and its `Sql`. */
export async function memoryStore(): Promise<{ db: Database.Database; sql: Sql }> {
  const db = new Database(':memory:');
  const sql = sqliteSql(db);
  await migrateStore(sql);
  return { db, sql };
}

/** Visitor `n`: a session id of 64 characters, a documentation address. */
export const testVisitor = (n: number): Visitor => ({ session: `s${n}`.padEnd(64, '0'), userAgent: 'test', ip: '192.0.2.0' });

/**
 * PostgreSQL: the visits store, migrated, on a fresh database of the suite's cluster, for races of
 * one session's writes. `whileHeld(session, start)`: another transaction holds the session's row
 * while `start()` begins two writes, until both wait for that lock (seen by a third connection in
 * pg_stat_activity, which a transaction would read only once), then lets them go: both began before
 * either wrote. Answers what they answered. `close()` ends the connections.
 */
export async function sessionRace() {
  const url = await newPostgresDatabase();
  const engine = postgresEngine(url);
  const other = new pg.Client({ connectionString: url });
  const watcher = new pg.Client({ connectionString: url });
  await Promise.all([other.connect(), watcher.connect()]);
  const close = async () => {
    await Promise.all([other.end(), watcher.end()]);
    await engine.close();
  };
  try {
    await migrateStore(engine.sql);
  } catch (error) {
    await close();
    throw error;
  }
  const reads: Reads = { all: () => Promise.reject(new Error('not used')), get: <T>() => Promise.resolve({ n: 0 } as T) };
  return {
    sql: engine.sql,
    visits: visitsStore(engine.sql, reads),
    async whileHeld<T>(session: string, start: () => Array<Promise<T>>): Promise<T[]> {
      await other.query('BEGIN');
      await other.query('UPDATE sessions SET last_seen = last_seen WHERE id = $1', [session]);
      const both = start();
      let waiting = 0;
      for (let tries = 0; waiting < 2 && tries < 250; tries++) {
        await new Promise((r) => setTimeout(r, 20));
        const { rows } = await watcher.query<{ n: string }>(
          "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        waiting = Number(rows[0]!.n);
      }
      expect(waiting).toBe(2);
      await other.query('COMMIT');
      return Promise.all(both);
    },
    close,
  };
}
