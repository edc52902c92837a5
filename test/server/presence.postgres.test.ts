import { describe, expect, it } from 'vitest';
import type { Heartbeat } from '../../collector/server/store/types';
import { sessionRace, testVisitor as visitor } from '../support/store';

// Two beats of one session at once on PostgreSQL (two tabs of a returning visitor restored together):
// each statement reads the session's `last_seen` in its own snapshot, so both can read the old one and
// both look like an arrival. (PostgreSQL pass only: on SQLite a beat's writes are one transaction at a
// time, and the second reads the first's `last_seen`.)

const PAGE = 'http://lichtwerk.test/';
const beat: Heartbeat = { page: PAGE, initialize: false, deviceWidth: null, deviceHeight: null };

describe('the sessions online on PostgreSQL', () => {
  it('a returning session whose two beats come at once is one arrival, not two', async () => {
    const race = await sessionRace();
    try {
      const t = 1_000_000;
      const record = async (n: number, at: number) =>
        (await race.visits.recordHeartbeat(visitor(n), beat, at, 0, at - 10_000)).online;
      // visitor 9 was here an hour ago (out of the window); visitors 1 and 2 are online
      expect(await record(9, t - 3_600_000)).toBe(1);
      expect(await record(1, t)).toBe(1);
      expect(await record(2, t + 100)).toBe(2);
      // another transaction holds visitor 9's row, so that both of its beats start (and read its old
      // `last_seen`) before either writes
      expect(await race.whileHeld(visitor(9).session, () => [record(9, t + 200), record(9, t + 201)])).toEqual([3, 3]);
      expect(await record(1, t + 300)).toBe(3);
      // the next count agrees
      expect(await record(2, t + 1_200)).toBe(3);
    } finally {
      await race.close();
    }
  });
});
