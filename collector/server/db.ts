import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, openSync } from 'node:fs';
import { describeAgent, type AgentInfo } from './agent';
import { UTM_FIELDS, pageAddress, type UtmField } from './page';
import { migrate, postgresSql, sqliteSql, type Migration, type Sql } from './sql';

/** How often presence heartbeats are pruned, at most. */
const PRUNE_EVERY_MS = 60_000;

/**
 * Times are integer milliseconds since the epoch (the collector's injectable clock). `sessions`
 * holds visitors that sent at least one heartbeat (visitors who refused statistics are not
 * counted). In `cookie_consents` a NULL category is the generic choice, and `granted` is 1 when
 * consent was given (com_gdpr's inverted "state" is turned around on the way in). Consent rows
 * keep the user agent and IP address because a consent log must show who agreed, as com_gdpr's does.
 * Written once for both engines: `${ID}` is a generated row id, `${TIME}` a 64-bit integer.
 */
const SCHEMA_1 = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  first_seen \${TIME} NOT NULL,
  last_seen \${TIME} NOT NULL,
  user_agent TEXT NOT NULL,
  device_width INTEGER,
  device_height INTEGER
);
CREATE INDEX IF NOT EXISTS sessions_last_seen ON sessions (last_seen);
CREATE TABLE IF NOT EXISTS heartbeats (
  id \${ID},
  session_id TEXT NOT NULL REFERENCES sessions (id),
  page TEXT NOT NULL,
  initialize INTEGER NOT NULL,
  modules INTEGER NOT NULL,
  at \${TIME} NOT NULL
);
CREATE INDEX IF NOT EXISTS heartbeats_page_at ON heartbeats (page, at);
CREATE TABLE IF NOT EXISTS clicks (
  id \${ID},
  session_id TEXT NOT NULL,
  page TEXT NOT NULL,
  selector TEXT NOT NULL,
  at \${TIME} NOT NULL
);
CREATE INDEX IF NOT EXISTS clicks_page_selector ON clicks (page, selector);
CREATE TABLE IF NOT EXISTS cookie_consents (
  id \${ID},
  session_id TEXT NOT NULL,
  category INTEGER CHECK (category BETWEEN 1 AND 4),
  granted INTEGER NOT NULL CHECK (granted IN (0, 1)),
  user_agent TEXT NOT NULL,
  ip TEXT NOT NULL,
  at \${TIME} NOT NULL
);
CREATE INDEX IF NOT EXISTS cookie_consents_at ON cookie_consents (at);
CREATE TABLE IF NOT EXISTS form_consents (
  id \${ID},
  session_id TEXT NOT NULL,
  url TEXT NOT NULL,
  form_id TEXT NOT NULL,
  form_name TEXT NOT NULL,
  fields TEXT NOT NULL,
  user_agent TEXT NOT NULL,
  ip TEXT NOT NULL,
  at \${TIME} NOT NULL,
  deleted_at \${TIME}
);
CREATE INDEX IF NOT EXISTS form_consents_form ON form_consents (session_id, url, form_id, form_name);
CREATE INDEX IF NOT EXISTS form_consents_at ON form_consents (at);
CREATE TABLE IF NOT EXISTS admin_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS admin_devices (token_hash TEXT PRIMARY KEY, created_at \${TIME} NOT NULL);
CREATE TABLE IF NOT EXISTS admin_sessions (
  token_hash TEXT PRIMARY KEY,
  created_at \${TIME} NOT NULL,
  last_seen \${TIME} NOT NULL
);
`;

/**
 * The sign-in limiter's attempts (admin/auth.ts), in the database so that every process of one
 * PostgreSQL counts the same guesses: one row per attempt, keyed by address or device.
 */
const SCHEMA_2 = `
CREATE TABLE IF NOT EXISTS admin_attempts (
  id \${ID},
  key TEXT NOT NULL,
  at \${TIME} NOT NULL
);
CREATE INDEX IF NOT EXISTS admin_attempts_key_at ON admin_attempts (key, at);
CREATE INDEX IF NOT EXISTS admin_attempts_at ON admin_attempts (at);
`;

/**
 * The dashboard's data (docs/collector.md "What the dashboard counts, and from what"), from what the collector already receives: per session the
 * device class and browser parsed from its user agent (agent.ts); per page view (`initialize = 1`)
 * the time of its latest heartbeat (`last_at`: time on page, to the heartbeat interval), the
 * referring host where one is known (page.ts referrerHost) and the campaign parameters of its
 * address, which are no longer part of `page`. Rows written before have NULL there.
 * The per-visitor index holds page views only (partial): every query that looks a visitor up asks
 * for `initialize = 1`, and the presence rows (nine in ten) then cost it no write.
 */
const SCHEMA_3 = `
ALTER TABLE sessions ADD COLUMN device TEXT;
ALTER TABLE sessions ADD COLUMN browser TEXT;
ALTER TABLE heartbeats ADD COLUMN last_at \${TIME};
ALTER TABLE heartbeats ADD COLUMN referrer TEXT;
ALTER TABLE heartbeats ADD COLUMN utm_source TEXT;
ALTER TABLE heartbeats ADD COLUMN utm_medium TEXT;
ALTER TABLE heartbeats ADD COLUMN utm_campaign TEXT;
ALTER TABLE heartbeats ADD COLUMN utm_term TEXT;
ALTER TABLE heartbeats ADD COLUMN utm_content TEXT;
CREATE INDEX IF NOT EXISTS heartbeats_views_session ON heartbeats (session_id, page, at) WHERE initialize = 1;
CREATE INDEX IF NOT EXISTS heartbeats_views_at ON heartbeats (initialize, at);
CREATE INDEX IF NOT EXISTS clicks_at ON clicks (at);
`;

/** The column types where the engines differ; everything else is the same text. */
const TYPES = {
  sqlite: { ID: 'INTEGER PRIMARY KEY', TIME: 'INTEGER' },
  postgres: { ID: 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY', TIME: 'BIGINT' },
} as const;

const typed = (schema: string) => (engine: Sql['engine']) =>
  schema.replace(/\$\{(ID|TIME)\}/g, (_, name: 'ID' | 'TIME') => TYPES[engine][name]);

/** The schema's versions (`schema_migrations`); 1 is the schema of the SQLite-only collector. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'collector and admin tables', sql: typed(SCHEMA_1) },
  { version: 2, name: 'sign-in attempts', sql: typed(SCHEMA_2) },
  {
    version: 3,
    name: 'dashboard: devices, time on page, referrers, campaigns',
    sql: typed(SCHEMA_3),
    then: async (tx) => {
      await describeStoredAgents(tx);
      await normaliseStoredPages(tx);
    },
  },
];

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
  /** First heartbeat of a page view only: the referring host, if known (page.ts referrerHost). */
  referrer?: string | null;
  /** First heartbeat of a page view only: the address's campaign parameters (page.ts pageAddress). */
  utm?: Record<UtmField, string | null>;
  /** First heartbeat of a page view only: the user agent parsed (agent.ts); later beats leave it. */
  agent?: AgentInfo | null;
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

/** The collector's storage: every method is one short statement or transaction, on either engine. */
export interface Store {
  recordHeartbeat(visitor: Visitor, beat: Heartbeat, at: number): Promise<void>;
  /** Sessions seen on `page` and on the whole site since `since`, and ever. */
  presence(page: string, since: number): Promise<Presence>;
  /**
   * Delete presence heartbeats (`initialize = 0`) older than `before`; page views (`initialize = 1`)
   * stay. Runs at most once a minute of `at` (per process), so calling it on every heartbeat is
   * cheap. Returns how many rows went.
   */
  prunePresence(before: number, at: number): Promise<number>;
  /** Store a click; false (nothing stored) past the visitor's share of the page. */
  recordClick(visitor: Visitor, page: string, selector: string, at: number): Promise<boolean>;
  clicksOn(page: string, limit: number): Promise<ClickSummary[]>;
  recordCookieConsent(visitor: Visitor, category: number | null, granted: boolean, at: number): Promise<void>;
  storeFormConsent(visitor: Visitor, form: FormRef, fields: Record<string, string>, at: number): Promise<void>;
  /** Mark the visitor's latest live record of that form deleted; returns how many rows changed (0 or 1). */
  deleteFormConsent(visitor: Visitor, form: FormRef, at: number): Promise<number>;
  /** Newest first, all kinds. */
  latestConsents(limit: number): Promise<ConsentRow[]>;
  /** Bring the schema up to date (MIGRATIONS); the first thing to call. */
  migrate(now: number): Promise<void>;
  /** The open database, for the admin area's own queries (collector/server/admin/). */
  sql: Sql;
  close(): Promise<void>;
}

/** Clicks one visitor session may store per page, and distinct selectors among them. */
export const MAX_CLICKS_PER_SESSION = 300;
export const MAX_SELECTORS_PER_SESSION = 40;

/** Where the collector keeps its data: a SQLite file (or `:memory:`), or a PostgreSQL database. */
export type StoreTarget = { sqlite: string } | { postgres: string };

/**
 * Open (or create) the collector's database; `migrate` then brings its schema up to date. A SQLite
 * file gets WAL so QA can read it while we write; it holds the consent log, so it is created
 * readable by the collector's user only (0600; SQLite gives its -wal and -shm files the same mode),
 * and an older file is narrowed to that. PostgreSQL (a URL) is shared by every collector process
 * that names it; its pool connects on the first statement.
 */
export function createStore(target: StoreTarget): Store {
  if ('postgres' in target) return storeOn(postgresSql(target.postgres), async () => {});
  const path = target.sqlite;
  if (path !== ':memory:') {
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  }
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  return storeOn(sqliteSql(db), async () => hashStoredSessions(db));
}

/** createStore, then migrate: a store ready to use. */
export async function openStore(target: StoreTarget, now = Date.now()): Promise<Store> {
  const store = createStore(target);
  try {
    await store.migrate(now);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

function storeOn(sql: Sql, afterMigrations: () => Promise<void>): Store {
  let prunedAt = Number.NEGATIVE_INFINITY;
  return {
    async migrate(now) {
      await migrate(sql, MIGRATIONS, now);
      await afterMigrations();
    },
    recordHeartbeat: (visitor, beat, at) =>
      sql.transaction(async (tx) => {
        const agent = beat.agent ?? null;
        await tx.run(
          `INSERT INTO sessions (id, first_seen, last_seen, user_agent, device_width, device_height, device, browser)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen,
             device_width = COALESCE(excluded.device_width, sessions.device_width),
             device_height = COALESCE(excluded.device_height, sessions.device_height),
             device = COALESCE(sessions.device, excluded.device),
             browser = COALESCE(sessions.browser, excluded.browser)`,
          [
            visitor.session,
            at,
            at,
            visitor.userAgent,
            beat.deviceWidth,
            beat.deviceHeight,
            agent?.device ?? null,
            agent?.browser ?? null,
          ],
        );
        const utm = beat.utm;
        await tx.run(
          `INSERT INTO heartbeats (session_id, page, initialize, modules, at, last_at, referrer,
             utm_source, utm_medium, utm_campaign, utm_term, utm_content)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            visitor.session,
            beat.page,
            beat.initialize ? 1 : 0,
            beat.modules,
            at,
            beat.initialize ? at : null,
            beat.initialize ? (beat.referrer ?? null) : null,
            utm?.utm_source ?? null,
            utm?.utm_medium ?? null,
            utm?.utm_campaign ?? null,
            utm?.utm_term ?? null,
            utm?.utm_content ?? null,
          ],
        );
        // a later beat says the visitor is still on the page: its page view lasts until now
        // (the presence rows themselves go after an hour, this stays)
        if (!beat.initialize)
          await tx.run(
            `UPDATE heartbeats SET last_at = ? WHERE id = (
               SELECT id FROM heartbeats WHERE session_id = ? AND page = ? AND initialize = 1
               ORDER BY at DESC, id DESC LIMIT 1)`,
            [at, visitor.session, beat.page],
          );
      }),
    async presence(page, since) {
      const [onPage, online, total] = await Promise.all([
        sql.get<{ n: number }>('SELECT COUNT(DISTINCT session_id) AS n FROM heartbeats WHERE page = ? AND at >= ?', [
          page,
          since,
        ]),
        sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE last_seen >= ?', [since]),
        sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions'),
      ]);
      return { onPage: onPage!.n, online: online!.n, total: total!.n };
    },
    async prunePresence(before, at) {
      if (at - prunedAt < PRUNE_EVERY_MS) return 0;
      prunedAt = at;
      return sql.run('DELETE FROM heartbeats WHERE initialize = 0 AND at < ?', [before]);
    },
    async recordClick(visitor, page, selector, at) {
      const mine = (await sql.get<{ clicks: number; selectors: number; known: number }>(
        `SELECT COUNT(*) AS clicks, COUNT(DISTINCT selector) AS selectors,
           COALESCE(SUM(CASE WHEN selector = ? THEN 1 ELSE 0 END), 0) AS known
         FROM clicks WHERE session_id = ? AND page = ?`,
        [selector, visitor.session, page],
      ))!;
      // one visitor's share of a page: enough for any real visit, not enough to flood the heatmap
      if (mine.clicks >= MAX_CLICKS_PER_SESSION) return false;
      if (!mine.known && mine.selectors >= MAX_SELECTORS_PER_SESSION) return false;
      await sql.run('INSERT INTO clicks (session_id, page, selector, at) VALUES (?, ?, ?, ?)', [
        visitor.session,
        page,
        selector,
        at,
      ]);
      return true;
    },
    // ranked by how many visitors clicked a selector, then how often: one visitor's many selectors
    // (at most MAX_SELECTORS_PER_SESSION of them) cannot push out what several visitors clicked
    clicksOn: (page, limit) =>
      sql.all<ClickSummary>(
        `SELECT selector, COUNT(*) AS count, MAX(at) AS last FROM clicks WHERE page = ?
         GROUP BY selector ORDER BY COUNT(DISTINCT session_id) DESC, COUNT(*) DESC, MAX(at) DESC LIMIT ?`,
        [page, limit],
      ),
    recordCookieConsent: async (visitor, category, granted, at) =>
      void (await sql.run(
        'INSERT INTO cookie_consents (session_id, category, granted, user_agent, ip, at) VALUES (?, ?, ?, ?, ?, ?)',
        [visitor.session, category, granted ? 1 : 0, visitor.userAgent, visitor.ip, at],
      )),
    storeFormConsent: async (visitor, form, fields, at) =>
      void (await sql.run(
        `INSERT INTO form_consents (session_id, url, form_id, form_name, fields, user_agent, ip, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [visitor.session, form.url, form.formId, form.formName, JSON.stringify(fields), visitor.userAgent, visitor.ip, at],
      )),
    deleteFormConsent: (visitor, form, at) =>
      sql.run(
        `UPDATE form_consents SET deleted_at = ? WHERE id = (
           SELECT id FROM form_consents
           WHERE session_id = ? AND url = ? AND form_id = ? AND form_name = ? AND deleted_at IS NULL
           ORDER BY at DESC, id DESC LIMIT 1)`,
        [at, visitor.session, form.url, form.formId, form.formName],
      ),
    async latestConsents(limit) {
      const cookieRows = await sql.all<{
        id: number;
        session_id: string;
        category: number | null;
        granted: number;
        user_agent: string;
        at: number;
      }>('SELECT id, session_id, category, granted, user_agent, at FROM cookie_consents ORDER BY at DESC, id DESC LIMIT ?', [
        limit,
      ]);
      const formRows = await sql.all<{
        id: number;
        session_id: string;
        url: string;
        form_id: string;
        form_name: string;
        fields: string;
        user_agent: string;
        at: number;
        deleted_at: number | null;
      }>(
        'SELECT id, session_id, url, form_id, form_name, fields, user_agent, at, deleted_at FROM form_consents ORDER BY at DESC, id DESC LIMIT ?',
        [limit],
      );
      const cookies: ConsentRow[] = cookieRows.map((row) => ({
        kind: row.category === null ? 'generic' : 'category',
        id: row.id,
        session: row.session_id,
        category: row.category,
        granted: row.granted === 1,
        userAgent: row.user_agent,
        at: row.at,
      }));
      const forms: ConsentRow[] = formRows.map((row) => ({
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
    sql,
    close: () => sql.close(),
  };
}

/**
 * Migration 3, once: sessions stored before it get their device class and browser from their
 * stored user agent (a parser runs in JavaScript, not in SQL), so older visitors count too.
 */
async function describeStoredAgents(tx: Sql): Promise<void> {
  const rows = await tx.all<{ id: string; user_agent: string }>('SELECT id, user_agent FROM sessions');
  for (const row of rows) {
    const agent = describeAgent(row.user_agent);
    await tx.run('UPDATE sessions SET device = ?, browser = ? WHERE id = ?', [agent.device, agent.browser, row.id]);
  }
}

/**
 * Migration 3, once: page addresses stored before it lose the bundle's QA switches and `utm_*` as
 * new ones do (page.ts), the campaign values moving to their columns on page views; so
 * `/?pagepulse-debug=1` joins `/` in the past too. Only addresses with a query are looked at.
 */
async function normaliseStoredPages(tx: Sql): Promise<void> {
  for (const table of ['heartbeats', 'clicks']) {
    // the pattern as a parameter: a `?` in the SQL text would be a placeholder (sql.ts)
    const pages = await tx.all<{ page: string }>(`SELECT DISTINCT page FROM ${table} WHERE page LIKE ?`, ['%?%']);
    for (const { page: stored } of pages) {
      const { page, utm } = pageAddress(stored);
      if (page === stored) continue;
      if (table === 'clicks') {
        await tx.run('UPDATE clicks SET page = ? WHERE page = ?', [page, stored]);
        continue;
      }
      await tx.run(
        `UPDATE heartbeats SET page = ?, ${UTM_FIELDS.map((f) => `${f} = CASE WHEN initialize = 1 THEN ? ELSE NULL END`).join(', ')}
         WHERE page = ?`,
        [page, ...UTM_FIELDS.map((f) => utm[f]), stored],
      );
    }
  }
}

/**
 * Sessions are stored as the SHA-256 of the visitor's cookie (session.ts), so a copy of the
 * database cannot be replayed as a visitor. A SQLite file written before that held the raw values
 * (26 to 128 characters, never 64 hex): they are hashed in place, once, in one transaction.
 * (PostgreSQL support came later: its databases never held raw values.)
 */
function hashStoredSessions(db: Database.Database): void {
  const raw = db.prepare("SELECT 1 FROM sessions WHERE length(id) <> 64 OR id GLOB '*[^0-9a-f]*' LIMIT 1").get();
  if (!raw) return;
  db.function('pp_sha256', { deterministic: true }, (value: unknown) => createHash('sha256').update(String(value)).digest('hex'));
  const old = "length(session_id) <> 64 OR session_id GLOB '*[^0-9a-f]*'";
  db.transaction(() => {
    // heartbeats point at sessions: checked at COMMIT, when both sides carry the hash (`foreign_keys
    // = OFF` would be a no-op inside a transaction, and the first UPDATE failed)
    db.pragma('defer_foreign_keys = ON');
    for (const table of ['heartbeats', 'clicks', 'cookie_consents', 'form_consents'])
      db.exec(`UPDATE ${table} SET session_id = pp_sha256(session_id) WHERE ${old}`);
    db.exec("UPDATE sessions SET id = pp_sha256(id) WHERE length(id) <> 64 OR id GLOB '*[^0-9a-f]*'");
  })();
}
