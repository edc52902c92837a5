import { UTM_FIELDS, type Heartbeat, type Visitor } from './types';

/**
 * The texts of one heartbeat's statements (visits-beat.ts runs them) and their parameters: the
 * session's upsert, the presence row, a later beat's page view, the live counts as each engine's
 * planner takes them, a new visit's columns, and SQLite's statements for a page view.
 */

/** The session's row, its `last_seen` now; a page view's first beat brings the device and agent. */
export const UPSERT_SESSION = `INSERT INTO sessions (id, first_seen, last_seen, user_agent, device_width, device_height, device, browser, os)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen,
     device_width = COALESCE(excluded.device_width, sessions.device_width),
     device_height = COALESCE(excluded.device_height, sessions.device_height),
     device = COALESCE(sessions.device, excluded.device),
     browser = COALESCE(sessions.browser, excluded.browser),
     os = COALESCE(sessions.os, excluded.os)`;
/** UPSERT_SESSION's parameters for a beat of `visitor` at `at`. */
export const sessionParams = (visitor: Visitor, beat: Heartbeat, at: number): unknown[] => [
  visitor.session,
  at,
  at,
  visitor.userAgent,
  beat.deviceWidth,
  beat.deviceHeight,
  beat.agent?.device ?? null,
  beat.agent?.browser ?? null,
  beat.agent?.os ?? null,
];
/** A beat's presence row: the session on the page at that time (the live counts read these). */
export const PRESENCE_ROW = 'INSERT INTO presence (session_id, page, at) VALUES (?, ?, ?)';
/** A later beat: the session's latest page view of the page lasts until now (presence rows go after an hour, this stays). */
export const STILL_HERE = `UPDATE page_views SET last_at = ? WHERE id = (
    SELECT id FROM page_views WHERE session_id = ? AND page = ? ORDER BY at DESC, id DESC LIMIT 1)
  RETURNING at`;
/**
 * The live counts without the beating session, which is on the page and online (it has just
 * beaten): so they can be read in the same statement as its own writes, whose changes that
 * statement's reads do not see. The page's count reads the window's range of the (page, at) index,
 * said to each engine as its planner takes it: PostgreSQL gets a row value (which keeps it from
 * taking the `at` index, whose statistics lag behind the newest rows, and filtering the whole
 * window's rows by page); SQLite gets the plain range, since beside `page = ?` it used the row value
 * only as a filter, reading every presence row of the page (an hour of them are kept: 15 ms a beat
 * at 500 beats a second, where the window's rows take 0.2). The site's count is every session seen
 * in the window, so it is only counted when the caller asks (visits.ts counts it at most once a second).
 */
const others = (postgres: boolean, online: boolean) => `SELECT
    (SELECT COUNT(DISTINCT session_id) FROM presence
      WHERE ${postgres ? 'page = ? AND (page, at) >= (?, ?)' : 'page = ? AND at >= ?'} AND session_id <> ?) AS on_page,
    ${online ? '(SELECT COUNT(*) FROM sessions WHERE last_seen >= ? AND id <> ?)' : 'NULL'} AS online,
    ${online ? (postgres ? 'CAST(pg_current_snapshot() AS TEXT)' : 'total_changes()') : 'NULL'} AS seen`;
/** The four texts, made once: by engine (SQLite, PostgreSQL), then by whether the site's count is due. */
const OTHERS = [false, true].map((postgres) => [false, true].map((online) => others(postgres, online)));
/** The live counts' text for the engine, with the site's count or without it. */
export const othersSql = (postgres: boolean, online: boolean) => OTHERS[Number(postgres)]![Number(online)]!;
/** othersSql's parameters, in the order of its placeholders on that engine. */
export const othersParams = (postgres: boolean, visitor: Visitor, page: string, since: number, online: boolean) => [
  ...(postgres ? [page, page, since] : [page, since]),
  visitor.session,
  ...(online ? [since, visitor.session] : []),
];
/**
 * The session's `last_seen` before this beat (whether the site's last count had it): read first in
 * SQLite's transaction; in PostgreSQL's one statement, beside the counts (its reads do not see its
 * own upsert).
 */
const LAST_SEEN = 'SELECT last_seen FROM sessions WHERE id = ?';
/**
 * SQLite: the session's `last_seen` and the connection's count of rows changed so far
 * (`total_changes()`), read in the beat's transaction before its writes: a count of the sessions
 * online saw this beat's session if it read more changes than that (see BeatOrder).
 */
export const LAST_SEEN_AND_CHANGES = `SELECT (${LAST_SEEN}) AS last_seen, total_changes() AS mark`;
/**
 * A PostgreSQL beat statement's answer: the counts, the session's `last_seen` before it, and its
 * transaction's id (a count of the sessions online saw this beat's session if its snapshot shows
 * that transaction as committed; see BeatOrder).
 */
export const answerSql = (online: boolean) =>
  `${othersSql(true, online)}, (${LAST_SEEN}) AS last_seen, CAST(pg_current_xact_id() AS TEXT) AS mark`;
/** answerSql's parameters: the counts' and then the session's for its `last_seen`. */
export const answerParams = (visitor: Visitor, page: string, since: number, online: boolean) => [
  ...othersParams(true, visitor, page, since, online),
  visitor.session,
];
/** What a beat's statement answers: the counts without the beating session, its `last_seen` before it. */
export interface Others {
  on_page: number;
  online: number | null;
  /** With `online`: SQLite's changes so far, PostgreSQL's snapshot (`xmin:xmax:xip,...`). */
  seen: number | string | null;
  last_seen: number | null;
  /** SQLite's changes before the beat's writes, PostgreSQL's transaction id. */
  mark: number | string;
}

/**
 * A new visit's row: each column with its SQL type (PostgreSQL cannot guess a parameter's type in an
 * `INSERT ... SELECT`; TEXT needs no cast) and its value from the page view's first beat.
 */
type NewVisitColumn = readonly [
  string,
  'BIGINT' | 'INTEGER' | 'TEXT',
  (visitor: Visitor, beat: Heartbeat, at: number) => unknown,
];
const NEW_VISIT_COLUMNS: readonly NewVisitColumn[] = [
  ['session_id', 'TEXT', (visitor) => visitor.session],
  ['started_at', 'BIGINT', (_, __, at) => at],
  ['last_view_at', 'BIGINT', (_, __, at) => at],
  ['views', 'INTEGER', () => 1],
  ['entry_page', 'TEXT', (_, beat) => beat.page],
  ['exit_page', 'TEXT', (_, beat) => beat.page],
  ['referrer', 'TEXT', (_, beat) => beat.referrer?.host ?? null],
  ['referrer_path', 'TEXT', (_, beat) => beat.referrer?.path ?? null],
  ['source', 'TEXT', (_, beat) => beat.referrer?.source ?? null],
  ...UTM_FIELDS.map((f): NewVisitColumn => [f, 'TEXT', (_, beat) => beat.utm?.[f] ?? null]),
  ['device', 'TEXT', (_, beat) => beat.agent?.device ?? null],
  ['browser', 'TEXT', (_, beat) => beat.agent?.browser ?? null],
  ['screen_width', 'INTEGER', (_, beat) => beat.deviceWidth],
  ['country', 'TEXT', (_, beat) => beat.country ?? null],
  ['os', 'TEXT', (_, beat) => beat.agent?.os ?? null],
];
/** The visits table with a new visit's columns, for an `INSERT INTO` of either engine. */
export const NEW_VISIT = `visits (${NEW_VISIT_COLUMNS.map(([column]) => column).join(', ')})`;
/** A new visit's values, in NEW_VISIT's column order. */
export const newVisit = (visitor: Visitor, beat: Heartbeat, at: number): unknown[] =>
  NEW_VISIT_COLUMNS.map(([, , value]) => value(visitor, beat, at));
/** A new visit's values as parameters, `typed` with a cast where PostgreSQL needs one. */
export const placeholders = (typed: boolean) =>
  NEW_VISIT_COLUMNS.map(([, type]) => (typed && type !== 'TEXT' ? `CAST(? AS ${type})` : '?')).join(', ');
/** The session's latest visit: the one a page view continues, if it is recent enough. */
export const LATEST_VISIT =
  'SELECT id, started_at, last_view_at FROM visits WHERE session_id = ? ORDER BY started_at DESC, id DESC LIMIT 1';
/** A page view that continues a visit: one view more, its page the visit's exit (the caller adds the row's condition). */
export const CONTINUE_VISIT = 'UPDATE visits SET views = views + 1, exit_page = ?, last_view_at = ?';
/** A page view's row, its values added by the caller (parameters, or a SELECT of a new visit's id). */
export const NEW_PAGE_VIEW = 'INSERT INTO page_views (visit_id, session_id, page, at, last_at)';
/** SQLite's statements for a page view, written once (the texts are its statement cache's keys). */
export const CONTINUE_VISIT_BY_ID = `${CONTINUE_VISIT} WHERE id = ?`;
export const INSERT_VISIT = `INSERT INTO ${NEW_VISIT} VALUES (${placeholders(false)}) RETURNING id`;
export const INSERT_PAGE_VIEW = `${NEW_PAGE_VIEW} VALUES (?, ?, ?, ?, ?)`;
