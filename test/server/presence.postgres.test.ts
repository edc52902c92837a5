import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresEngine } from '../../collector/server/store/postgres';
import type { Reads } from '../../collector/server/store/sql';
import type { Heartbeat } from '../../collector/server/store/types';
import { visitsStore } from '../../collector/server/store/visits';
import { newPostgresDatabase } from '../support/collector';
import { migrateStore, testVisitor as visitor } from '../support/store';

// Two beats of one session at once on PostgreSQL (two tabs of a returning visitor restored together):
// each statement reads the session's `last_seen` in its own snapshot, so both can read the old one and
// both look like an arrival. (PostgreSQL pass only: on SQLite a beat's writes are one transaction at a
// time, and the second reads the first's `last_seen`.)

const PAGE = 'http://lichtwerk.test/';
const beat: Heartbeat = { page: PAGE, initialize: false, deviceWidth: null, deviceHeight: null };

describe('the sessions online on PostgreSQL', () => {
  it('a returning session whose two beats come at once is one arrival, not two', async () => {
    const url = await newPostgresDatabase();
    const engine = postgresEngine(url);
    // `other` holds the row; `watcher` reads who waits (pg_stat_activity is read once per transaction:
    // `other`, inside its own, would see the first reading again and again)
    const other = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    await Promise.all([other.connect(), watcher.connect()]);
    try {
      await migrateStore(engine.sql);
      const reads: Reads = { all: () => Promise.reject(new Error('not used')), get: <T>() => Promise.resolve({ n: 0 } as T) };
      const visits = visitsStore(engine.sql, reads);
      const t = 1_000_000;
      const record = async (n: number, at: number) => (await visits.recordHeartbeat(visitor(n), beat, at, 0, at - 10_000)).online;
      // visitor 9 was here an hour ago (out of the window); visitors 1 and 2 are online
      expect(await record(9, t - 3_600_000)).toBe(1);
      expect(await record(1, t)).toBe(1);
      expect(await record(2, t + 100)).toBe(2);
      // another transaction holds visitor 9's row, so that both of its beats start (and read its old
      // `last_seen`) before either writes
      await other.query('BEGIN');
      await other.query('UPDATE sessions SET last_seen = last_seen WHERE id = $1', [visitor(9).session]);
      const both = [record(9, t + 200), record(9, t + 201)];
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
      expect(await Promise.all(both)).toEqual([3, 3]);
      expect(await record(1, t + 300)).toBe(3);
      // the next count agrees
      expect(await record(2, t + 1_200)).toBe(3);
    } finally {
      await Promise.all([other.end(), watcher.end()]);
      await engine.close();
    }
  });
});
