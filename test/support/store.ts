import Database from 'better-sqlite3';
import { migrations } from '../../collector/server/store';
import { migrate } from '../../collector/server/store/migrate';
import type { Sql } from '../../collector/server/store/sql';
import { sqliteSql } from '../../collector/server/store/sqlite';
import type { Visitor } from '../../collector/server/store/types';
import { describeAgent } from '../../collector/server/visitor/agent';
import { pageAddress } from '../../collector/server/visitor/page';
import { sourceOf } from '../../collector/server/visitor/sources';

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
