import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresEngine } from '../../collector/server/store/postgres';
import type { Reads } from '../../collector/server/store/sql';
import type { Heartbeat } from '../../collector/server/store/types';
import { visitsStore } from '../../collector/server/store/visits';
import { newPostgresDatabase } from '../support/collector';
import { migrateStore, testVisitor as visitor } from '../support/store';

// Two first beats of one session at once on PostgreSQL (tabs opened together): a page view's
// statement reads the session's latest visit in its snapshot, so without the session's lock both
// saw none and began a visit each. (PostgreSQL pass only: SQLite writes one beat at a time; the
// same over HTTP on both engines is in session-races.test.ts, where the split shows in some runs.)

const beat = (page: string, initialize: boolean): Heartbeat => ({ page, initialize, deviceWidth: 1280, deviceHeight: 800 });

describe('visits on PostgreSQL', () => {
  it("a session's two first beats at once are one visit of two page views", async () => {
    const url = await newPostgresDatabase();
    const engine = postgresEngine(url);
    const other = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    await Promise.all([other.connect(), watcher.connect()]);
    try {
      await migrateStore(engine.sql);
      const reads: Reads = { all: () => Promise.reject(new Error('not used')), get: <T>() => Promise.resolve({ n: 0 } as T) };
      const visits = visitsStore(engine.sql, reads);
      const t = 1_000_000;
      const record = (page: string, initialize: boolean, at: number) =>
        visits.recordHeartbeat(visitor(9), beat(page, initialize), at, 0, at - 10_000);
      // the session is known (a later beat, no visit yet); another transaction holds its row, so that
      // both first beats start before either writes
      await record('http://lichtwerk.test/', false, t);
      await other.query('BEGIN');
      await other.query('UPDATE sessions SET last_seen = last_seen WHERE id = $1', [visitor(9).session]);
      const both = [record('http://lichtwerk.test/a', true, t + 100), record('http://lichtwerk.test/b', true, t + 101)];
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
      await Promise.all(both);
      expect(await engine.sql.all('SELECT views FROM visits')).toEqual([{ views: 2 }]);
      expect(await engine.sql.get('SELECT COUNT(DISTINCT visit_id) AS visits, COUNT(*) AS n FROM page_views')).toEqual({
        visits: 1,
        n: 2,
      });
    } finally {
      await Promise.all([other.end(), watcher.end()]);
      await engine.close();
    }
  });
});
