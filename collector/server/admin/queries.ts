import type { Sql } from '../sql';
import { pseudonymOf } from '../session';
import type { Bucket, Period } from './period';
import { consentShares, type CategoryRecord, type DayShares } from './stats';

/** One day in milliseconds: retention counts whole days back from now. */
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
    /**
     * Per bucket of the period, the share of deciding visitors who allowed each category; and the
     * same for the whole period and the previous one (a visitor deciding twice counts once).
     */
    async consentStats(period: Period) {
      const rows = await sql.all<{ session: string; category: number | null; granted: number; at: number }>(
        'SELECT session_id AS session, category, granted, at FROM cookie_consents WHERE at < ? ORDER BY at, id',
        [period.current.end],
      );
      const records: CategoryRecord[] = rows.map((r) => ({ ...r, granted: r.granted === 1 }));
      const labelled = (buckets: readonly Bucket[]): DayShares[] =>
        consentShares(records, buckets).map((d, i) => ({ ...d, day: buckets[i]!.label }));
      const [previous] = consentShares(records, [period.previous]);
      const [current] = consentShares(records, [period.current]);
      return { buckets: labelled(period.buckets), current: current!, previous: previous! };
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
