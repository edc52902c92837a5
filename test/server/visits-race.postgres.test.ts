import { describe, expect, it } from 'vitest';
import type { Heartbeat } from '../../collector/server/store/types';
import { sessionRace, testVisitor as visitor } from '../support/store';

// Two first beats of one session at once on PostgreSQL (tabs opened together): a page view's
// statement reads the session's latest visit in its snapshot, so without the session's lock both
// saw none and began a visit each. (PostgreSQL pass only: SQLite writes one beat at a time; the
// same over HTTP on both engines is in session-races.test.ts, where the split shows in some runs.)

const beat = (page: string, initialize: boolean): Heartbeat => ({ page, initialize, deviceWidth: 1280, deviceHeight: 800 });

describe('visits on PostgreSQL', () => {
  it("a session's two first beats at once are one visit of two page views", async () => {
    const race = await sessionRace();
    try {
      const t = 1_000_000;
      const record = (page: string, initialize: boolean, at: number) =>
        race.visits.recordHeartbeat(visitor(9), beat(page, initialize), at, 0, at - 10_000);
      // the session is known (a later beat, no visit yet); another transaction holds its row, so that
      // both first beats start before either writes
      await record('http://lichtwerk.test/', false, t);
      await race.whileHeld(visitor(9).session, () => [
        record('http://lichtwerk.test/a', true, t + 100),
        record('http://lichtwerk.test/b', true, t + 101),
      ]);
      expect(await race.sql.all('SELECT views FROM visits')).toEqual([{ views: 2 }]);
      expect(await race.sql.get('SELECT COUNT(DISTINCT visit_id) AS visits, COUNT(*) AS n FROM page_views')).toEqual({
        visits: 1,
        n: 2,
      });
    } finally {
      await race.close();
    }
  });
});
