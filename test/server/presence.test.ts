import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../collector/server/store';
import { migrate } from '../../collector/server/store/migrate';
import { textOf, type Reads, type Sql, type Statement } from '../../collector/server/store/sql';
import { postgresEngine } from '../../collector/server/store/postgres';
import { sqliteSql } from '../../collector/server/store/sqlite';
import type { Heartbeat } from '../../collector/server/store/types';
import { ONLINE_EVERY_MS, visitsStore } from '../../collector/server/store/visits';
import { snapshotSees } from '../../collector/server/store/visits-beat';
import { describeAgent } from '../../collector/server/visitor/agent';
import { pageAddress } from '../../collector/server/visitor/page';
import { sourceOf } from '../../collector/server/visitor/sources';
import { newPostgresDatabase, TEST_ENGINE } from '../support/collector';
import { memoryStore, testVisitor as visitor } from '../support/store';

const PAGE = 'http://lichtwerk.test/';
const beat: Heartbeat = { page: PAGE, initialize: true, deviceWidth: null, deviceHeight: null };

describe('live counts of a heartbeat', () => {
  it("the badge's total of sessions: while its count runs every beat answers the last one, the one that started it too; only the first count is waited for", async () => {
    const { db, sql } = await memoryStore();
    // the readers' side: the count of every session answers when the test lets it (a scan of a large table)
    const counts: Array<{ answer: () => void; fail: () => void }> = [];
    const reads: Reads = {
      all: () => Promise.reject(new Error('not used')),
      get: <T>(text: string) =>
        new Promise<T | undefined>((answer, fail) => {
          expect(text).toBe('SELECT COUNT(*) AS n FROM sessions');
          counts.push({ answer: () => answer(db.prepare(text).get() as T), fail: () => fail(new Error('the reader stopped')) });
        }),
    };
    const visits = visitsStore(sql, reads);
    const record = (n: number, at: number) => visits.recordHeartbeat(visitor(n), beat, at, 0, at - 10_000);
    const settled = (p: Promise<unknown>) =>
      Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))]);

    const first = record(1, 1_000_000); // nothing counted yet: it waits
    expect(await settled(first)).toBe(false);
    counts.shift()!.answer();
    expect(await first).toEqual({ onPage: 1, online: 1, total: 1 });

    await record(2, 1_005_000); // within 10 s: the last count, at least the sessions online
    // 10 s on: counts again, and answers the last count meanwhile, as every beat does while the
    // count waits on the readers' side (behind a dashboard read there: up to 1.9 s measured)
    const starter = record(3, 1_012_000);
    const meanwhile = record(4, 1_012_001);
    expect(await settled(starter)).toBe(true);
    expect(await settled(meanwhile)).toBe(true);
    // online: visitors 2, 3 and 4 (visitor 1's beat is out of the window; the count saw visitor 4's
    // write, so its answer adds nobody); ever: the last count (1) and each new session at once
    expect(await starter).toMatchObject({ online: 3, total: 3 });
    expect(await meanwhile).toMatchObject({ online: 3, total: 4 });
    expect(counts).toHaveLength(1); // one count at a time
    counts.shift()!.answer();
    await new Promise((r) => setTimeout(r, 0));
    // the count's four sessions, and a new fifth counted at once: more than the three online
    expect(await record(5, 1_021_900)).toMatchObject({ online: 3, total: 5 });
    expect(counts).toHaveLength(0);

    // a count that fails is not waited for, is no unhandled rejection, and the next beat tries again
    expect(await settled(record(2, 1_022_003))).toBe(true);
    expect(counts).toHaveLength(1);
    counts.shift()!.fail();
    await new Promise((r) => setTimeout(r, 0));
    expect(await record(2, 1_022_004)).toMatchObject({ total: 5 });
    expect(counts).toHaveLength(1);
    counts.shift()!.answer();
    await new Promise((r) => setTimeout(r, 0));
    expect(await record(2, 1_022_005)).toMatchObject({ total: 5 });
    db.close();
  });

  it("the badge's first count starts as the collector opens: the first beat waits for it, not behind the readers' work begun after it", async () => {
    const { db, sql } = await memoryStore();
    for (const n of [1, 2, 3])
      db.prepare('INSERT INTO sessions (id, first_seen, last_seen, user_agent) VALUES (?, 0, 0, ?)').run(
        visitor(n).session,
        'test',
      );
    // the readers' side as the reader thread is: one statement at a time, in the order asked
    const asked: Array<{ text: string; answer: () => void }> = [];
    const reads: Reads = {
      all: () => Promise.reject(new Error('not used')),
      get: <T>(text: string) =>
        new Promise<T | undefined>((answer) => asked.push({ text, answer: () => answer(db.prepare(text).get() as T) })),
    };
    const answerNext = async () => {
      asked.shift()!.answer();
      await new Promise((r) => setTimeout(r, 0));
    };
    const settled = (p: Promise<unknown>) =>
      Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))]);
    const visits = visitsStore(sql, reads);
    const t = 1_000_000;
    visits.startCounts(t);
    // the totals' run begins on the readers' side (a month's count: about 1 s at 1 M page views)
    const month = reads.get('SELECT 1 AS month');
    // a beat before the first count is answered waits for it (never answers a total of 0)
    const early = visits.recordHeartbeat(visitor(4), beat, t + 5, 0, t - 9_995);
    expect(await settled(early)).toBe(false);
    await answerNext();
    expect(await settled(early)).toBe(true);
    expect(await early).toMatchObject({ total: 4 });
    // the next beats do not wait for the month's count, still running
    expect(await settled(visits.recordHeartbeat(visitor(5), beat, t + 10, 0, t - 9_990))).toBe(true);
    expect(asked.map((a) => a.text)).toEqual(['SELECT 1 AS month']);
    await answerNext();
    await month;
    db.close();
  });

  it('counts the sessions online at most once a second; an arrival at once, a departure at the next count', async () => {
    const { db, sql: base } = await memoryStore();
    // every count of the site's sessions online reads a row per session in the window: counted here
    let counts = 0;
    const sql: Sql = {
      ...base,
      get: <T>(text: string, params?: readonly unknown[]) => {
        if (text.includes('FROM sessions WHERE last_seen >=')) counts++;
        return base.get<T>(text, params);
      },
    };
    const reads: Reads = {
      all: () => Promise.reject(new Error('not used')),
      get: <T>(text: string) => Promise.resolve(db.prepare(text).get() as T),
    };
    const visits = visitsStore(sql, reads);
    const t = 1_000_000;
    const record = async (n: number, at: number) =>
      (await visits.recordHeartbeat(visitor(n), { ...beat, initialize: false }, at, 0, at - 10_000)).online;

    expect(await record(1, t)).toBe(1);
    expect(await record(2, t + 100)).toBe(2); // an arrival: counted at once
    expect(await record(1, t + 200)).toBe(2); // seen before: not twice
    const answers: number[] = [];
    for (let i = 0; i < 50; i++) answers.push(await record(1 + (i % 5), t + 300 + i * 12));
    // visitors 3, 4 and 5 arrive in the first five beats; then five are online
    expect(answers.slice(0, 5)).toEqual([2, 2, 3, 4, 5]);
    expect(new Set(answers.slice(5))).toEqual(new Set([5]));
    expect(counts).toBe(1); // 53 beats within the second: one count
    expect(ONLINE_EVERY_MS).toBe(1_000);

    // a second on: counted again (all five still in the window)
    expect(await record(1, t + 1_000)).toBe(5);
    expect(counts).toBe(2);
    // visitors 2 to 5 beat last at t + 888 at the latest: gone from the window at t + 10,889, and
    // from the answer at the first count after it
    expect(await record(1, t + 10_900)).toBe(1);
    expect(counts).toBe(3);
    // on both engines the answer never says fewer online than on the page
    expect(await visits.recordHeartbeat(visitor(9), beat, t + 10_901, 0, t + 901)).toMatchObject({ onPage: 2, online: 2 });
    db.close();
  });

  it("the page's count reads the window's presence rows, not the hour of older ones kept beside them", async () => {
    const { db, sql } = await memoryStore();
    const reads: Reads = {
      all: () => Promise.reject(new Error('not used')),
      get: <T>(text: string) => Promise.resolve(db.prepare(text).get() as T),
    };
    const visits = visitsStore(sql, reads);
    const t = 10_000_000;
    // 200 beats of 20 sessions on the page, each counting the page's sessions in its 10 s window; the
    // rounds 20 s apart, so that every window holds its own round's beats only (the same work each)
    const round = async (k: number) => {
      const started = performance.now();
      for (let i = 0; i < 200; i++)
        await visits.recordHeartbeat(
          visitor(11 + (i % 20)), // 11 to 30: distinct ids (visitor(1) and visitor(10) are one)
          { ...beat, initialize: false },
          t + k * 20_000 + i,
          0,
          t + k * 20_000 + i - 10_000,
        );
      return performance.now() - started;
    };
    const fastest = async (k: number) => Math.min(await round(k), await round(k + 1), await round(k + 2));
    await round(0); // statements prepared, pages warm
    const without = await fastest(1);
    // an hour of older beats on the page (kept PRESENCE_RETENTION_MS for the live counts), 150,000
    // as 40 beats a second make: outside every window of the rounds below
    const insert = db.prepare('INSERT INTO presence (session_id, page, at) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 150_000; i++) insert.run(visitor(i % 2_000).session, PAGE, t - 3_600_000 + i * 23);
    })();
    const beside = await fastest(4);
    // the same answers (the old rows are out of the window), in about the same time: the index's
    // range (page, at) is read; a count that filtered the page's rows by time took 100 times as long
    expect(await visits.recordHeartbeat(visitor(11), { ...beat, initialize: false }, t + 121_000, 0, t + 111_000)).toMatchObject({
      onPage: 20,
    });
    expect(beside).toBeLessThan(without * 4);
    db.close();
  });

  it('an arrival answered beside a count of the sessions online is counted once, whichever of the two is answered first', async () => {
    // the test's engine (a fresh PostgreSQL database in its pass); the next beat's counts may be
    // held after their statement ran, so that a beat is answered after a later one
    const parsers = { agent: describeAgent, page: pageAddress, source: sourceOf };
    const engine = TEST_ENGINE === 'postgres' ? postgresEngine(await newPostgresDatabase()) : null;
    const db = engine ? null : new Database(':memory:');
    const base = engine ? engine.sql : sqliteSql(db!);
    await migrate(base, migrations(parsers), 0);
    let gate: { ran: () => void; release: Promise<void> } | null = null;
    const hold = () => {
      let release!: () => void;
      let ran!: () => void;
      const done = new Promise<void>((r) => (ran = r));
      gate = { ran, release: new Promise<void>((r) => (release = r)) };
      return { ran: done, release };
    };
    const sql: Sql = {
      ...base,
      // the counts of a beat (on PostgreSQL the beat's one statement, its writes with them)
      get: async <T>(statement: Statement, params?: readonly unknown[]) => {
        const held = textOf(statement).includes('COUNT(DISTINCT session_id) FROM presence') ? gate : null;
        if (held) gate = null;
        const row = await base.get<T>(statement, params);
        held?.ran();
        await held?.release;
        return row;
      },
    };
    const reads: Reads = { all: () => Promise.reject(new Error('not used')), get: <T>() => Promise.resolve({ n: 0 } as T) };
    const visits = visitsStore(sql, reads);
    const t = 1_000_000;
    const record = async (n: number, at: number) =>
      (await visits.recordHeartbeat(visitor(n), { ...beat, initialize: false }, at, 0, at - 10_000)).online;
    try {
      expect(await record(1, t)).toBe(1);
      expect(await record(2, t + 100)).toBe(2);
      expect(await record(3, t + 200)).toBe(3);

      // visitor 4 arrives and is written; a count (visitor 1, a second on) sees it and is answered
      // first: 4 online, and visitor 4's own answer, later, adds nobody
      const written = hold();
      const arrival = record(4, t + 300);
      await written.ran;
      expect(await record(1, t + 1_000)).toBe(4);
      written.release();
      expect(await arrival).toBe(4);
      expect(await record(2, t + 1_001)).toBe(4);

      // a count runs (visitor 1, a second on) but is answered after visitor 5 arrives, whose write
      // it did not see: 5 online, not the count's 4
      const counted = hold();
      const count = record(1, t + 2_000);
      await counted.ran;
      expect(await record(5, t + 2_001)).toBe(5);
      counted.release();
      expect(await count).toBe(5);
      expect(await record(2, t + 2_002)).toBe(5);
      // and the next count has all five, the list of arrivals it did not see empty again
      expect(await record(3, t + 3_000)).toBe(5);
      expect(await record(6, t + 3_001)).toBe(6);
    } finally {
      await (engine ? engine.close() : Promise.resolve(db!.close()));
    }
  });

  it("PostgreSQL's order of a beat and a count: a snapshot sees the transactions before its xmin and those below its xmax not running", () => {
    // xmin 10, xmax 20, 12 and 15 still running
    const sees = ([9n, 10n, 12n, 13n, 15n, 19n, 20n, 25n] as const).map((xid) => [xid, snapshotSees('10:20:12,15', xid)]);
    expect(sees).toEqual([
      [9n, true],
      [10n, true],
      [12n, false],
      [13n, true],
      [15n, false],
      [19n, true],
      [20n, false],
      [25n, false],
    ]);
    expect(snapshotSees('700:700:', 699n)).toBe(true);
    expect(snapshotSees('700:700:', 700n)).toBe(false);
  });
});
