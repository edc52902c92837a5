import type { Sql } from '../sql';
import { pseudonymOf } from '../session';
import { dailyConsentShares, type CategoryRecord, type DayShares } from './stats';

/** One UTC day in milliseconds: the admin area counts days in UTC, as the log's timestamps are. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** A consent record as the admin area shows and exports it: the session only as its pseudonym. */
export interface ConsentEntry {
  kind: 'generic' | 'category' | 'form';
  id: number;
  at: number;
  visitor: string;
  category: number | null;
  granted: boolean | null;
  userAgent: string;
  url: string | null;
  formId: string | null;
  formName: string | null;
  fields: Record<string, string> | null;
  deletedAt: number | null;
}

/** Filters of the consent log: a half-open time range and an optional pseudonym. */
export interface ConsentFilter {
  from: number;
  to: number;
  visitor: string | null;
  limit: number;
}

/**
 * The pseudonym in SQL: the first 12 hex characters of the stored session (already the SHA-256 of
 * the cookie: session.ts pseudonymOf), the same function on both engines.
 */
const PSEUDONYM_OF = (column: string) => `substr(${column}, 1, 12)`;

/** The admin area's reads and deletions on the collector's database (either engine). */
export function createAdminQueries(sql: Sql) {
  type ConsentRowDb = {
    kind: string;
    id: number;
    session: string;
    category: number | null;
    granted: number | null;
    url: string | null;
    form_id: string | null;
    form_name: string | null;
    fields: string | null;
    user_agent: string;
    at: number;
    deleted_at: number | null;
  };
  // CAST: PostgreSQL must know the parameter's type to compare it with NULL
  const CONSENT_ROWS = `
    SELECT CASE WHEN category IS NULL THEN 'generic' ELSE 'category' END AS kind, id, session_id AS session, category, granted,
      NULL AS url, NULL AS form_id, NULL AS form_name, NULL AS fields, user_agent, at, NULL AS deleted_at
    FROM cookie_consents WHERE at >= ? AND at < ? AND (CAST(? AS TEXT) IS NULL OR ${PSEUDONYM_OF('session_id')} = ?)
    UNION ALL
    SELECT 'form', id, session_id, NULL, NULL, url, form_id, form_name, fields, user_agent, at, deleted_at
    FROM form_consents WHERE at >= ? AND at < ? AND (CAST(? AS TEXT) IS NULL OR ${PSEUDONYM_OF('session_id')} = ?)
    ORDER BY at DESC, id DESC, kind DESC LIMIT ?`;
  const SESSIONS_OF = `
    SELECT id AS session FROM sessions WHERE ${PSEUDONYM_OF('id')} = ?
    UNION SELECT session_id FROM cookie_consents WHERE ${PSEUDONYM_OF('session_id')} = ?
    UNION SELECT session_id FROM form_consents WHERE ${PSEUDONYM_OF('session_id')} = ?
    UNION SELECT session_id FROM clicks WHERE ${PSEUDONYM_OF('session_id')} = ?`;
  const ERASE_TABLES = ['heartbeats', 'clicks', 'cookie_consents', 'form_consents'];

  return {
    /** Sessions with a heartbeat since `since`, overall and per page. */
    async online(since: number) {
      const [count, pages] = await Promise.all([
        sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE last_seen >= ?', [since]),
        sql.all<{ page: string; visitors: number }>(
          'SELECT page, COUNT(DISTINCT session_id) AS visitors FROM heartbeats WHERE at >= ? GROUP BY page ORDER BY visitors DESC, page LIMIT 20',
          [since],
        ),
      ]);
      return { online: count!.n, pages };
    },
    /** Page views (first heartbeats) and distinct visitors per UTC day, `days` days up to `now`'s day, zeros included. */
    async viewsPerDay(now: number, days: number) {
      const first = Math.floor(now / DAY_MS) - days + 1;
      // whole numbers on both engines: integer division
      const rows = await sql.all<{ day: number; views: number; visitors: number }>(
        `SELECT at / ${DAY_MS} AS day, COUNT(*) AS views, COUNT(DISTINCT session_id) AS visitors
         FROM heartbeats WHERE initialize = 1 AND at >= ? GROUP BY at / ${DAY_MS}`,
        [first * DAY_MS],
      );
      const counted = new Map(rows.map((row) => [row.day, row]));
      return Array.from({ length: days }, (_, i) => {
        const row = counted.get(first + i);
        return { day: isoDay((first + i) * DAY_MS), views: row?.views ?? 0, visitors: row?.visitors ?? 0 };
      });
    },
    topPages: (since: number, limit: number) =>
      sql.all<{ page: string; views: number; visitors: number }>(
        `SELECT page, COUNT(*) AS views, COUNT(DISTINCT session_id) AS visitors FROM heartbeats
         WHERE initialize = 1 AND at >= ? GROUP BY page ORDER BY views DESC, page LIMIT ?`,
        [since, limit],
      ),
    /** The most clicked selectors per page (aggregate counts only), pages with the most clicks first. */
    async clicksByPage(perPage: number, maxPages: number) {
      const byPage = new Map<string, { page: string; total: number; selectors: Array<{ selector: string; count: number }> }>();
      const rows = await sql.all<{ page: string; selector: string; count: number }>(
        'SELECT page, selector, COUNT(*) AS count FROM clicks GROUP BY page, selector ORDER BY page, count DESC, selector',
      );
      for (const row of rows) {
        const entry = byPage.get(row.page) ?? { page: row.page, total: 0, selectors: [] };
        byPage.set(row.page, entry);
        entry.total += row.count;
        if (entry.selectors.length < perPage) entry.selectors.push({ selector: row.selector, count: row.count });
      }
      return [...byPage.values()].sort((a, b) => b.total - a.total).slice(0, maxPages);
    },
    /** Per UTC day from `now - days`, the share of deciding visitors who allowed each category. */
    async consentStats(now: number, days: number): Promise<DayShares[]> {
      const first = Math.floor(now / DAY_MS) - days + 1;
      const rows = await sql.all<{ session: string; category: number | null; granted: number; at: number }>(
        'SELECT session_id AS session, category, granted, at FROM cookie_consents WHERE at < ? ORDER BY at, id',
        [(first + days) * DAY_MS],
      );
      const records: CategoryRecord[] = rows.map((r) => ({ ...r, granted: r.granted === 1 }));
      return dailyConsentShares(records, first * DAY_MS, days, DAY_MS).map((d) => ({ ...d, day: isoDay(Number(d.day)) }));
    },
    async consents(filter: ConsentFilter): Promise<ConsentEntry[]> {
      const { from, to, visitor, limit } = filter;
      const rows = await sql.all<ConsentRowDb>(CONSENT_ROWS, [from, to, visitor, visitor, from, to, visitor, visitor, limit]);
      return rows.map((row) => ({
        kind: row.kind as ConsentEntry['kind'],
        id: row.id,
        at: row.at,
        visitor: pseudonymOf(row.session),
        category: row.category,
        granted: row.granted === null ? null : row.granted === 1,
        userAgent: row.user_agent,
        url: row.url,
        formId: row.form_id,
        formName: row.form_name,
        fields: row.fields === null ? null : (JSON.parse(row.fields) as Record<string, string>),
        deletedAt: row.deleted_at,
      }));
    },
    /** Delete every record of the sessions behind a pseudonym (GDPR Art. 17). */
    erase: (pseudonym: string) =>
      sql.transaction(async (tx) => {
        let records = 0;
        const sessions = await tx.all<{ session: string }>(SESSIONS_OF, [pseudonym, pseudonym, pseudonym, pseudonym]);
        for (const { session } of sessions) {
          for (const table of ERASE_TABLES) records += await tx.run(`DELETE FROM ${table} WHERE session_id = ?`, [session]);
          records += await tx.run('DELETE FROM sessions WHERE id = ?', [session]);
        }
        return { sessions: sessions.length, records };
      }),
    /**
     * The retention rule in one transaction: form consents and presence data (heartbeats, then
     * sessions left without any) older than `before` (null: kept), clicks older than `clicksBefore`,
     * cookie-consent records (the proof of consent) older than `consentsBefore`. On PostgreSQL one
     * process at a time runs it (an advisory lock): with `wait` it waits for its turn, else it
     * answers null when another process is running it now.
     */
    retain: (before: number | null, clicksBefore: number | null, consentsBefore: number | null, wait = false) =>
      sql.transaction(
        async (tx) => {
          // (a lock taken by the transaction itself is held by this session: tryLock answers true)
          if (!(await tx.tryLock('retention'))) return null;
          const older = (table: string, at: number | null) =>
            at === null ? Promise.resolve(0) : tx.run(`DELETE FROM ${table} WHERE at < ?`, [at]);
          const formConsents = await older('form_consents', before);
          const heartbeats = await older('heartbeats', before);
          const sessions =
            before === null
              ? 0
              : await tx.run('DELETE FROM sessions WHERE last_seen < ? AND id NOT IN (SELECT session_id FROM heartbeats)', [
                  before,
                ]);
          return {
            formConsents,
            heartbeats,
            sessions,
            clicks: await older('clicks', clicksBefore),
            cookieConsents: await older('cookie_consents', consentsBefore),
          };
        },
        wait ? 'retention' : undefined,
      ),
  };
}

/** The admin queries of one database. */
export type AdminQueries = ReturnType<typeof createAdminQueries>;

/** `YYYY-MM-DD` of a UTC time. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
