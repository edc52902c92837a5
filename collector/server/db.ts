import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, openSync } from 'node:fs';

/** How often presence heartbeats are pruned, at most. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Times are integer milliseconds since the epoch (the collector's injectable clock). `sessions`
 * holds visitors that sent at least one heartbeat (visitors who refused statistics are not
 * counted). In `cookie_consents` a NULL category is the generic choice, and `granted` is 1 when
 * consent was given (com_gdpr's inverted "state" is turned around on the way in). Consent rows
 * keep the user agent and IP address because a consent log must show who agreed, as com_gdpr's does.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  user_agent TEXT NOT NULL,
  device_width INTEGER,
  device_height INTEGER
);
CREATE INDEX IF NOT EXISTS sessions_last_seen ON sessions (last_seen);
CREATE TABLE IF NOT EXISTS heartbeats (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id),
  page TEXT NOT NULL,
  initialize INTEGER NOT NULL,
  modules INTEGER NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS heartbeats_page_at ON heartbeats (page, at);
CREATE TABLE IF NOT EXISTS clicks (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  page TEXT NOT NULL,
  selector TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS clicks_page_selector ON clicks (page, selector);
CREATE TABLE IF NOT EXISTS cookie_consents (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  category INTEGER CHECK (category BETWEEN 1 AND 4),
  granted INTEGER NOT NULL CHECK (granted IN (0, 1)),
  user_agent TEXT NOT NULL,
  ip TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cookie_consents_at ON cookie_consents (at);
CREATE TABLE IF NOT EXISTS form_consents (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  url TEXT NOT NULL,
  form_id TEXT NOT NULL,
  form_name TEXT NOT NULL,
  fields TEXT NOT NULL,
  user_agent TEXT NOT NULL,
  ip TEXT NOT NULL,
  at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX IF NOT EXISTS form_consents_form ON form_consents (session_id, url, form_id, form_name);
CREATE INDEX IF NOT EXISTS form_consents_at ON form_consents (at);
`;

/** Who sent a request: the session cookie's value and what the request says about the browser. */
export interface Visitor {
  session: string;
  userAgent: string;
  ip: string;
}

/** One stream.display call. */
export interface Heartbeat {
  page: string;
  initialize: boolean;
  modules: number;
  deviceWidth: number | null;
  deviceHeight: number | null;
}

/** The live counts behind the statistics module's badges. */
export interface Presence {
  onPage: number;
  online: number;
  total: number;
}

/** Clicks on one selector of one page. */
export interface ClickSummary {
  selector: string;
  count: number;
  last: number;
}

/** A stored consent record: the generic choice, one category's state, or a form's privacy tick. */
export type ConsentRow =
  | {
      kind: 'generic' | 'category';
      id: number;
      session: string;
      category: number | null;
      granted: boolean;
      userAgent: string;
      at: number;
    }
  | {
      kind: 'form';
      id: number;
      session: string;
      url: string;
      formId: string;
      formName: string;
      fields: Record<string, string>;
      userAgent: string;
      at: number;
      deletedAt: number | null;
    };

/** A form consent's identity: the same form on the same page for the same visitor. */
export interface FormRef {
  url: string;
  formId: string;
  formName: string;
}

/** The collector's storage; every method is one short synchronous SQLite statement or transaction. */
export interface Store {
  recordHeartbeat(visitor: Visitor, beat: Heartbeat, at: number): void;
  /** Sessions seen on `page` and on the whole site since `since`, and ever. */
  presence(page: string, since: number): Presence;
  /**
   * Delete presence heartbeats (`initialize = 0`) older than `before`; page views (`initialize = 1`)
   * stay. Runs at most once a minute of `at`, so calling it on every heartbeat is cheap. Returns
   * how many rows went.
   */
  prunePresence(before: number, at: number): number;
  /** Store a click; false (nothing stored) past the visitor's share of the page. */
  recordClick(visitor: Visitor, page: string, selector: string, at: number): boolean;
  clicksOn(page: string, limit: number): ClickSummary[];
  recordCookieConsent(visitor: Visitor, category: number | null, granted: boolean, at: number): void;
  storeFormConsent(visitor: Visitor, form: FormRef, fields: Record<string, string>, at: number): void;
  /** Mark the visitor's latest live record of that form deleted; returns how many rows changed (0 or 1). */
  deleteFormConsent(visitor: Visitor, form: FormRef, at: number): number;
  /** Newest first, all kinds. */
  latestConsents(limit: number): ConsentRow[];
  /** The open database, for the admin area's own queries (collector/server/admin/queries.ts). */
  db: Database.Database;
  close(): void;
}

/** Clicks one visitor session may store per page, and distinct selectors among them. */
export const MAX_CLICKS_PER_SESSION = 300;
export const MAX_SELECTORS_PER_SESSION = 40;

/**
 * Open (or create) the collector's database; a file gets WAL so QA can read it while we write. The
 * file holds the consent log: it is created readable by the collector's user only (0600; SQLite
 * gives its -wal and -shm files the same mode), and an older file is narrowed to that.
 */
export function openStore(path: string): Store {
  if (path !== ':memory:') {
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  }
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  hashStoredSessions(db);

  const upsertSession = db.prepare(`
    INSERT INTO sessions (id, first_seen, last_seen, user_agent, device_width, device_height)
    VALUES (@session, @at, @at, @userAgent, @deviceWidth, @deviceHeight)
    ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen,
      device_width = COALESCE(excluded.device_width, device_width),
      device_height = COALESCE(excluded.device_height, device_height)`);
  const insertHeartbeat = db.prepare(
    'INSERT INTO heartbeats (session_id, page, initialize, modules, at) VALUES (@session, @page, @initialize, @modules, @at)',
  );
  const countOnPage = db.prepare<[string, number], { n: number }>(
    'SELECT COUNT(DISTINCT session_id) AS n FROM heartbeats WHERE page = ? AND at >= ?',
  );
  const countOnline = db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE last_seen >= ?');
  const countTotal = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM sessions');
  const insertClick = db.prepare('INSERT INTO clicks (session_id, page, selector, at) VALUES (?, ?, ?, ?)');
  const sessionClicks = db.prepare<[string, string, string], { clicks: number; selectors: number; known: number }>(`
    SELECT COUNT(*) AS clicks, COUNT(DISTINCT selector) AS selectors, COALESCE(SUM(selector = ?), 0) AS known
    FROM clicks WHERE session_id = ? AND page = ?`);
  // ranked by how many visitors clicked a selector, then how often: one visitor's many selectors
  // (at most MAX_SELECTORS_PER_SESSION of them) cannot push out what several visitors clicked
  const selectClicks = db.prepare<[string, number], ClickSummary>(`
    SELECT selector, COUNT(*) AS count, MAX(at) AS last FROM clicks WHERE page = ?
    GROUP BY selector ORDER BY COUNT(DISTINCT session_id) DESC, count DESC, last DESC LIMIT ?`);
  const insertCookieConsent = db.prepare(
    'INSERT INTO cookie_consents (session_id, category, granted, user_agent, ip, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertFormConsent = db.prepare(`
    INSERT INTO form_consents (session_id, url, form_id, form_name, fields, user_agent, ip, at)
    VALUES (@session, @url, @formId, @formName, @fields, @userAgent, @ip, @at)`);
  const markFormConsentDeleted = db.prepare(`
    UPDATE form_consents SET deleted_at = @at WHERE id = (
      SELECT id FROM form_consents
      WHERE session_id = @session AND url = @url AND form_id = @formId AND form_name = @formName AND deleted_at IS NULL
      ORDER BY at DESC, id DESC LIMIT 1)`);
  const selectCookieConsents = db.prepare<
    [number],
    { id: number; session_id: string; category: number | null; granted: number; user_agent: string; at: number }
  >('SELECT id, session_id, category, granted, user_agent, at FROM cookie_consents ORDER BY at DESC, id DESC LIMIT ?');
  const selectFormConsents = db.prepare<
    [number],
    {
      id: number;
      session_id: string;
      url: string;
      form_id: string;
      form_name: string;
      fields: string;
      user_agent: string;
      at: number;
      deleted_at: number | null;
    }
  >(
    'SELECT id, session_id, url, form_id, form_name, fields, user_agent, at, deleted_at FROM form_consents ORDER BY at DESC, id DESC LIMIT ?',
  );

  const deletePresence = db.prepare('DELETE FROM heartbeats WHERE initialize = 0 AND at < ?');
  let prunedAt = Number.NEGATIVE_INFINITY;

  const heartbeat = db.transaction((visitor: Visitor, beat: Heartbeat, at: number) => {
    upsertSession.run({
      session: visitor.session,
      userAgent: visitor.userAgent,
      deviceWidth: beat.deviceWidth,
      deviceHeight: beat.deviceHeight,
      at,
    });
    insertHeartbeat.run({
      session: visitor.session,
      page: beat.page,
      initialize: beat.initialize ? 1 : 0,
      modules: beat.modules,
      at,
    });
  });

  return {
    recordHeartbeat: (visitor, beat, at) => heartbeat(visitor, beat, at),
    presence: (page, since) => ({
      onPage: countOnPage.get(page, since)!.n,
      online: countOnline.get(since)!.n,
      total: countTotal.get()!.n,
    }),
    prunePresence(before, at) {
      if (at - prunedAt < PRUNE_EVERY_MS) return 0;
      prunedAt = at;
      return deletePresence.run(before).changes;
    },
    recordClick(visitor, page, selector, at) {
      const mine = sessionClicks.get(selector, visitor.session, page)!;
      // one visitor's share of a page: enough for any real visit, not enough to flood the heatmap
      if (mine.clicks >= MAX_CLICKS_PER_SESSION) return false;
      if (!mine.known && mine.selectors >= MAX_SELECTORS_PER_SESSION) return false;
      insertClick.run(visitor.session, page, selector, at);
      return true;
    },
    clicksOn: (page, limit) => selectClicks.all(page, limit),
    recordCookieConsent: (visitor, category, granted, at) =>
      void insertCookieConsent.run(visitor.session, category, granted ? 1 : 0, visitor.userAgent, visitor.ip, at),
    storeFormConsent: (visitor, form, fields, at) =>
      void insertFormConsent.run({ ...visitor, ...form, fields: JSON.stringify(fields), at }),
    deleteFormConsent: (visitor, form, at) => markFormConsentDeleted.run({ session: visitor.session, ...form, at }).changes,
    latestConsents(limit) {
      const cookies: ConsentRow[] = selectCookieConsents.all(limit).map((row) => ({
        kind: row.category === null ? 'generic' : 'category',
        id: row.id,
        session: row.session_id,
        category: row.category,
        granted: row.granted === 1,
        userAgent: row.user_agent,
        at: row.at,
      }));
      const forms: ConsentRow[] = selectFormConsents.all(limit).map((row) => ({
        kind: 'form',
        id: row.id,
        session: row.session_id,
        url: row.url,
        formId: row.form_id,
        formName: row.form_name,
        fields: JSON.parse(row.fields) as Record<string, string>,
        userAgent: row.user_agent,
        at: row.at,
        deletedAt: row.deleted_at,
      }));
      return [...cookies, ...forms].sort((a, b) => b.at - a.at).slice(0, limit);
    },
    db,
    close: () => db.close(),
  };
}

/**
 * Sessions are stored as the SHA-256 of the visitor's cookie (session.ts), so a copy of the
 * database cannot be replayed as a visitor. A database written before that held the raw values
 * (26 to 128 characters, never 64 hex): they are hashed in place, once, in one transaction.
 */
function hashStoredSessions(db: Database.Database): void {
  const raw = db.prepare("SELECT 1 FROM sessions WHERE length(id) <> 64 OR id GLOB '*[^0-9a-f]*' LIMIT 1").get();
  if (!raw) return;
  db.function('pp_sha256', { deterministic: true }, (value: unknown) => createHash('sha256').update(String(value)).digest('hex'));
  const old = "length(session_id) <> 64 OR session_id GLOB '*[^0-9a-f]*'";
  db.transaction(() => {
    db.pragma('foreign_keys = OFF');
    for (const table of ['heartbeats', 'clicks', 'cookie_consents', 'form_consents'])
      db.exec(`UPDATE ${table} SET session_id = pp_sha256(session_id) WHERE ${old}`);
    db.exec("UPDATE sessions SET id = pp_sha256(id) WHERE length(id) <> 64 OR id GLOB '*[^0-9a-f]*'");
  })();
  db.pragma('foreign_keys = ON');
}
