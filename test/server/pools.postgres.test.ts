import { describe, expect, it } from 'vitest';
import { postgresEngine } from '../../collector/server/store/postgres';
import type { Heartbeat } from '../../collector/server/store/types';
import { ONLINE_EVERY_MS, visitsStore } from '../../collector/server/store/visits';
import { newPostgresDatabase } from '../support/collector';
import { migrateStore, testVisitor as visitor } from '../support/store';

// The PostgreSQL engine's two sides (collector/server/store/postgres.ts). A heartbeat's statement is
// a named prepared statement: parsed and planned once per connection, then only bound and run
// (store/sql.ts `prepared`; unnamed, PostgreSQL parsed, analysed and planned it with every beat: more
// than half of its CPU per beat). The readers' statements run one at a time, on one connection.

const PAGE = 'http://lichtwerk.test/';

describe('heartbeats on PostgreSQL', () => {
  it('run as prepared statements: one per kind of beat on the connection, run once per beat, parsed once', async () => {
    const engine = postgresEngine(await newPostgresDatabase());
    try {
      await migrateStore(engine.sql);
      const visits = visitsStore(engine.sql, engine.reads);
      // one beat at a time: the writers' pool hands out its one idle connection again (last in, first out)
      let at = 1_000_000;
      const beats: Array<[number, boolean]> = [];
      for (let n = 0; n < 3; n++) {
        beats.push([n, true]);
        for (let i = 0; i < 4; i++) beats.push([n, false]);
      }
      for (const [i, [n, initialize]] of beats.entries()) {
        const beat: Heartbeat = { page: PAGE, initialize, deviceWidth: 1280, deviceHeight: 800 };
        await visits.recordHeartbeat(visitor(n), beat, at, 0, at - 10_000);
        // every third beat a second later: the site's count is due (the statements with it)
        at += i % 3 === 2 ? ONLINE_EVERY_MS : 10;
      }
      const statements = await engine.sql.all<{ name: string; statement: string; runs: number }>(
        `SELECT name, statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements ORDER BY name`,
      );
      // the answers are right (the same as unprepared: the collector suite checks them on both engines)
      expect(await engine.sql.get('SELECT COUNT(*) AS n FROM page_views')).toEqual({ n: 3 });
      expect(statements.length).toBeGreaterThanOrEqual(2);
      expect(statements.length).toBeLessThanOrEqual(4);
      for (const s of statements) expect(s.name).toMatch(/^pp_[0-9a-f]{24}$/);
      expect(statements.some((s) => s.statement.includes('INSERT INTO page_views'))).toBe(true);
      expect(statements.some((s) => s.statement.includes('UPDATE page_views SET last_at'))).toBe(true);
      // each beat ran one of them, once
      expect(statements.reduce((sum, s) => sum + Number(s.runs), 0)).toBe(beats.length);
    } finally {
      await engine.close();
    }
  });

  it("the readers' statements run one at a time, on one connection, in the order asked; the writers meanwhile", async () => {
    const engine = postgresEngine(await newPostgresDatabase());
    try {
      const started = performance.now();
      const order: string[] = [];
      const reading = Promise.all(
        [0, 1, 2].map(async (n) => {
          const row = await engine.reads.get<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.2)::text AS slept');
          order.push(`read ${n}`);
          return row!;
        }),
      );
      // the writers' side is not held by the readers: answered before the first read's 0.2 s are over
      await engine.sql.get('SELECT 1 AS one');
      order.push('write');
      const answers = await reading;
      expect(new Set(answers.map((a) => a.pid)).size).toBe(1);
      expect(order).toEqual(['write', 'read 0', 'read 1', 'read 2']);
      // three sleeps of 0.2 s one after another, not side by side
      expect(performance.now() - started).toBeGreaterThanOrEqual(590);
    } finally {
      await engine.close();
    }
  });
});
