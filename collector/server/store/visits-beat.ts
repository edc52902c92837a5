import { noteLate, noteLateOf } from './rollups';
import { prepared, sessionLock, type Prepared, type Sql } from './sql';
import type { Heartbeat, Visitor } from './types';
import {
  answerParams,
  answerSql,
  CONTINUE_VISIT,
  CONTINUE_VISIT_BY_ID,
  INSERT_PAGE_VIEW,
  INSERT_VISIT,
  LAST_SEEN_AND_CHANGES,
  LATEST_VISIT,
  NEW_PAGE_VIEW,
  NEW_VISIT,
  newVisit,
  othersParams,
  othersSql,
  placeholders,
  PRESENCE_ROW,
  sessionParams,
  STILL_HERE,
  UPSERT_SESSION,
  type Others,
} from './visits-beat-sql';

/**
 * One heartbeat's writes (the visits area's, visits.ts): the session, a presence row, and for a page
 * view's first beat the page view in its visit, for a later beat its page view's `last_at`; and the
 * live counts right after them. On PostgreSQL every beat is one statement; SQLite (in the
 * collector's own process, no round trips) writes in a transaction. The statements' texts are
 * visits-beat-sql.ts's.
 */

/** A page view more than this after the session's previous one starts a new visit. */
export const VISIT_GAP_MS = 30 * 60 * 1000;

/** A page view in its visit: the session's latest visit, or a new one after VISIT_GAP_MS. */
const addPageView = async (tx: Sql, visitor: Visitor, beat: Heartbeat, at: number, lateBefore: number) => {
  const last = await tx.get<{ id: number; started_at: number; last_view_at: number }>(LATEST_VISIT, [visitor.session]);
  let visit: number;
  if (last && at - last.last_view_at <= VISIT_GAP_MS) {
    visit = last.id;
    await tx.run(CONTINUE_VISIT_BY_ID, [beat.page, at, visit]);
    if (last.started_at < lateBefore) await noteLate(tx, last.started_at, at);
  } else {
    visit = (await tx.get<{ id: number }>(INSERT_VISIT, newVisit(visitor, beat, at)))!.id;
  }
  await tx.run(INSERT_PAGE_VIEW, [visit, visitor.session, beat.page, at, at]);
};

/**
 * A beat's writes in one transaction (SQLite); answers the session's `last_seen` before them (null:
 * new) and the connection's changes before them.
 */
const writeBeat = (sql: Sql, visitor: Visitor, beat: Heartbeat, at: number, lateBefore: number) =>
  sql.transaction(async (tx) => {
    const before = (await tx.get<{ last_seen: number | null; mark: number }>(LAST_SEEN_AND_CHANGES, [visitor.session]))!;
    await tx.run(UPSERT_SESSION, sessionParams(visitor, beat, at));
    await tx.run(PRESENCE_ROW, [visitor.session, beat.page, at]);
    if (beat.initialize) await addPageView(tx, visitor, beat, at, lateBefore);
    else {
      const view = await tx.get<{ at: number }>(STILL_HERE, [at, visitor.session, beat.page]);
      if (view && view.at < lateBefore) await noteLate(tx, view.at, at);
    }
    return before;
  });

/**
 * A beat's times: when it came, the start of the site's today (a write to an earlier day is noted for
 * the day totals), the presence window's start, and whether the site's live count is due.
 */
export interface BeatTimes {
  at: number;
  lateBefore: number;
  since: number;
  online: boolean;
}

/** One beat as one statement on PostgreSQL. */
type BeatStatement = (sql: Sql, visitor: Visitor, beat: Heartbeat, times: BeatTimes) => Promise<Others>;

/**
 * A statement made once for each value of `online` and prepared (visits-beat's PostgreSQL statements:
 * their text depends on whether the site's count is due and on the columns' types, never on values).
 */
const perOnline = (make: (online: boolean) => string) => {
  const made: Prepared[] = [];
  return (online: boolean): Prepared => (made[Number(online)] ??= prepared(make(online)));
};

/**
 * A later beat on PostgreSQL: its writes, the late note (noteLate's statement) and the live counts
 * as ONE statement: one round trip instead of seven (nine beats in ten are later beats, and on a
 * small machine every round trip is CPU time of both the collector and the server).
 */
const LATER_BEAT = perOnline(
  (online) => `WITH s AS (${UPSERT_SESSION}),
       p AS (${PRESENCE_ROW}),
       v AS (${STILL_HERE}),
       d AS (${noteLateOf('v', 'at')})
     ${answerSql(online)}`,
);
const laterBeatAtOnce: BeatStatement = async (sql, visitor, beat, { at, lateBefore, since, online }) =>
  (await sql.get<Others>(LATER_BEAT(online), [
    ...sessionParams(visitor, beat, at),
    ...[visitor.session, beat.page, at],
    ...[at, visitor.session, beat.page],
    ...[at, lateBefore],
    ...answerParams(visitor, beat.page, since, online),
  ]))!;

/**
 * A page view's first beat on PostgreSQL, as ONE statement too: the session, the presence row, the
 * session's latest visit continued (`cont`) or a new one (`fresh`, only when none continues), the
 * page view in whichever it is, the late note of a continued visit begun on a counted day, and the
 * live counts. What addPageView does in five round trips. Run in a transaction under the session's
 * lock (recordBeat): BEGIN with the lock, this, COMMIT.
 */
const CONTINUES = 'SELECT id FROM latest WHERE CAST(? AS BIGINT) - last_view_at <= ?';
const PAGE_VIEW = perOnline(
  (online) => `WITH s AS (${UPSERT_SESSION}),
       p AS (${PRESENCE_ROW}),
       latest AS (${LATEST_VISIT}),
       cont AS (${CONTINUE_VISIT} WHERE id = (${CONTINUES}) RETURNING id, started_at),
       fresh AS (INSERT INTO ${NEW_VISIT} SELECT ${placeholders(true)} WHERE NOT EXISTS (${CONTINUES}) RETURNING id),
       v AS (${NEW_PAGE_VIEW} SELECT id, ?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT) FROM (SELECT id FROM cont UNION ALL SELECT id FROM fresh) x),
       d AS (${noteLateOf('cont', 'started_at')})
     ${answerSql(online)}`,
);
const pageViewAtOnce: BeatStatement = async (sql, visitor, beat, { at, lateBefore, since, online }) =>
  (await sql.get<Others>(PAGE_VIEW(online), [
    ...sessionParams(visitor, beat, at),
    ...[visitor.session, beat.page, at],
    visitor.session,
    ...[beat.page, at, at, VISIT_GAP_MS],
    ...newVisit(visitor, beat, at),
    ...[at, VISIT_GAP_MS],
    ...[visitor.session, beat.page, at, at],
    ...[at, lateBefore],
    ...answerParams(visitor, beat.page, since, online),
  ]))!;

/**
 * Where a beat's session write falls against a count of the sessions online (the order of the
 * database's writes): `write` marks the beat (SQLite: the connection's changes before its
 * transaction; PostgreSQL: its transaction id), and a count answers whether it `saw` a mark (SQLite:
 * it read more changes than that, the writes being one connection's, one transaction at a time;
 * PostgreSQL: its snapshot shows that transaction committed). So the count of sessions online
 * (visits.ts) adds an arrival answered beside a count only if that count did not have it.
 */
export type BeatMark = number | bigint;
export interface BeatOrder {
  write: BeatMark;
  /** With a count of the sessions online: whether it saw a beat's writes. */
  saw: ((write: BeatMark) => boolean) | null;
}

/** PostgreSQL: whether a snapshot (`xmin:xmax:xip,...`, pg_current_snapshot) sees transaction `xid` as committed. */
export function snapshotSees(snapshot: string, xid: bigint): boolean {
  const [xmin, xmax, list = ''] = snapshot.split(':');
  if (xid < BigInt(xmin!)) return true;
  if (xid >= BigInt(xmax!)) return false;
  return !list
    .split(',')
    .filter(Boolean)
    .some((running) => BigInt(running) === xid);
}

/** A count's `saw` from its statement's `seen`. */
const sawOf = (seen: number | string | null): BeatOrder['saw'] =>
  seen === null
    ? null
    : typeof seen === 'string'
      ? (write) => snapshotSees(seen, BigInt(write))
      : (write) => Number(write) < seen;

/**
 * Record one beat on the writers' side; answers the sessions seen since `times.since` on its page
 * and, if `times.online`, on the site (the beating session among them, else null), the session's
 * `last_seen` before the beat (null for a new session), and the beat's place in the order of writes.
 */
export async function recordBeat(
  sql: Sql,
  visitor: Visitor,
  beat: Heartbeat,
  times: BeatTimes,
): Promise<{ onPage: number; online: number | null; lastSeen: number | null } & BeatOrder> {
  const { at, lateBefore, since, online } = times;
  let found: Others;
  if (sql.engine === 'postgres')
    found = beat.initialize
      ? // under the session's lock, taken before the statement's snapshot: two first beats at once
        // (tabs opened together) each saw no visit in theirs and began one each
        await sql.transaction((tx) => pageViewAtOnce(tx, visitor, beat, times), sessionLock(visitor.session))
      : await laterBeatAtOnce(sql, visitor, beat, times);
  else {
    const before = await writeBeat(sql, visitor, beat, at, lateBefore);
    const counts = await sql.get<Omit<Others, 'last_seen' | 'mark'>>(
      othersSql(false, online),
      othersParams(false, visitor, beat.page, since, online),
    );
    found = { ...counts!, last_seen: before.last_seen, mark: before.mark };
  }
  return {
    onPage: found.on_page + 1,
    online: found.online === null ? null : found.online + 1,
    lastSeen: found.last_seen,
    write: typeof found.mark === 'string' ? BigInt(found.mark) : found.mark,
    saw: sawOf(found.online === null ? null : found.seen),
  };
}
