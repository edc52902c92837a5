import { describe, expect, it } from 'vitest';
import { migrations } from '../../collector/server/store';
import { migrate } from '../../collector/server/store/migrate';
import { postgresEngine } from '../../collector/server/store/postgres';
import type { Heartbeat, Visitor } from '../../collector/server/store/types';
import { ONLINE_EVERY_MS, visitsStore } from '../../collector/server/store/visits';
import { describeAgent } from '../../collector/server/visitor/agent';
import { pageAddress } from '../../collector/server/visitor/page';
import { sourceOf } from '../../collector/server/visitor/sources';
import { newPostgresDatabase } from '../support/collector';

// A heartbeat's statement on PostgreSQL is a named prepared statement: parsed and planned once per
// connection, then only bound and run (collector/server/store/sql.ts `prepared`). Unnamed, PostgreSQL
// parsed, analysed and planned it with every beat: more than half of its CPU per beat.

const PAGE = 'http://lichtwerk.test/';
const visitor = (n: number): Visitor => ({ session: `s${n}`.padEnd(64, '0'), userAgent: 'test', ip: '192.0.2.0' });

describe('heartbeats on PostgreSQL', () => {
  it('run as prepared statements: one per kind of beat on the connection, run once per beat, parsed once', async () => {
    const engine = postgresEngine(await newPostgresDatabase());
    try {
      await migrate(engine.sql, migrations({ agent: describeAgent, page: pageAddress, source: sourceOf }), 0);
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
});
