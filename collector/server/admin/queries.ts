import type Database from 'better-sqlite3';
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

/** The admin area's reads and deletions on the collector's database. */
export function createAdminQueries(db: Database.Database) {
  // the pseudonym is computed, not stored, so a search by it runs the same hash as the listing
  db.function('pp_pseudonym', { deterministic: true }, (session: unknown) => pseudonymOf(String(session)));

  const onlineCount = db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE last_seen >= ?');
  const onlinePages = db.prepare<[number], { page: string; visitors: number }>(
    'SELECT page, COUNT(DISTINCT session_id) AS visitors FROM heartbeats WHERE at >= ? GROUP BY page ORDER BY visitors DESC, page LIMIT 20',
  );
  const views = db.prepare<[number], { day: number; views: number; visitors: number }>(
    `SELECT at / ${DAY_MS} AS day, COUNT(*) AS views, COUNT(DISTINCT session_id) AS visitors
     FROM heartbeats WHERE initialize = 1 AND at >= ? GROUP BY day`,
  );
  const pages = db.prepare<[number, number], { page: string; views: number; visitors: number }>(
    `SELECT page, COUNT(*) AS views, COUNT(DISTINCT session_id) AS visitors FROM heartbeats
     WHERE initialize = 1 AND at >= ? GROUP BY page ORDER BY views DESC, page LIMIT ?`,
  );
  const clicks = db.prepare<[], { page: string; selector: string; count: number }>(
    'SELECT page, selector, COUNT(*) AS count FROM clicks GROUP BY page, selector ORDER BY page, count DESC, selector',
  );
  const categoryRecords = db.prepare<[number], { session: string; category: number | null; granted: number; at: number }>(
    'SELECT session_id AS session, category, granted, at FROM cookie_consents WHERE at < ? ORDER BY at, id',
  );
  const consentRows = db.prepare<
    { from: number; to: number; visitor: string | null; limit: number },
    {
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
    }
  >(`
    SELECT CASE WHEN category IS NULL THEN 'generic' ELSE 'category' END AS kind, id, session_id AS session, category, granted,
      NULL AS url, NULL AS form_id, NULL AS form_name, NULL AS fields, user_agent, at, NULL AS deleted_at
    FROM cookie_consents WHERE at >= @from AND at < @to AND (@visitor IS NULL OR pp_pseudonym(session_id) = @visitor)
    UNION ALL
    SELECT 'form', id, session_id, NULL, NULL, url, form_id, form_name, fields, user_agent, at, deleted_at
    FROM form_consents WHERE at >= @from AND at < @to AND (@visitor IS NULL OR pp_pseudonym(session_id) = @visitor)
    ORDER BY at DESC, id DESC, kind DESC LIMIT @limit`);

  const sessionsOf = db.prepare<[string, string, string, string], { session: string }>(`
    SELECT id AS session FROM sessions WHERE pp_pseudonym(id) = ?
    UNION SELECT session_id FROM cookie_consents WHERE pp_pseudonym(session_id) = ?
    UNION SELECT session_id FROM form_consents WHERE pp_pseudonym(session_id) = ?
    UNION SELECT session_id FROM clicks WHERE pp_pseudonym(session_id) = ?`);
  const eraseTables = ['heartbeats', 'clicks', 'cookie_consents', 'form_consents'].map((table) =>
    db.prepare(`DELETE FROM ${table} WHERE session_id = ?`),
  );
  const eraseSession = db.prepare('DELETE FROM sessions WHERE id = ?');
  const erase = db.transaction((pseudonym: string) => {
    let records = 0;
    const sessions = sessionsOf.all(pseudonym, pseudonym, pseudonym, pseudonym);
    for (const { session } of sessions) {
      for (const statement of eraseTables) records += statement.run(session).changes;
      records += eraseSession.run(session).changes;
    }
    return { sessions: sessions.length, records };
  });

  const expireForms = db.prepare('DELETE FROM form_consents WHERE at < ?');
  const expireClicks = db.prepare('DELETE FROM clicks WHERE at < ?');
  const expireCookieConsents = db.prepare('DELETE FROM cookie_consents WHERE at < ?');
  const expireBeats = db.prepare('DELETE FROM heartbeats WHERE at < ?');
  const expireSessions = db.prepare('DELETE FROM sessions WHERE last_seen < ? AND id NOT IN (SELECT session_id FROM heartbeats)');
  const expire = db.transaction((before: number) => ({
    formConsents: expireForms.run(before).changes,
    heartbeats: expireBeats.run(before).changes,
    sessions: expireSessions.run(before).changes,
  }));

  return {
    /** Sessions with a heartbeat since `since`, overall and per page. */
    online: (since: number) => ({ online: onlineCount.get(since)!.n, pages: onlinePages.all(since) }),
    /** Page views (first heartbeats) and distinct visitors per UTC day, `days` days up to `now`'s day, zeros included. */
    viewsPerDay(now: number, days: number) {
      const first = Math.floor(now / DAY_MS) - days + 1;
      const counted = new Map(views.all(first * DAY_MS).map((row) => [row.day, row]));
      return Array.from({ length: days }, (_, i) => {
        const row = counted.get(first + i);
        return { day: isoDay((first + i) * DAY_MS), views: row?.views ?? 0, visitors: row?.visitors ?? 0 };
      });
    },
    topPages: (since: number, limit: number) => pages.all(since, limit),
    /** The most clicked selectors per page (aggregate counts only), pages with the most clicks first. */
    clicksByPage(perPage: number, maxPages: number) {
      const byPage = new Map<string, { page: string; total: number; selectors: Array<{ selector: string; count: number }> }>();
      for (const row of clicks.all()) {
        const entry = byPage.get(row.page) ?? { page: row.page, total: 0, selectors: [] };
        byPage.set(row.page, entry);
        entry.total += row.count;
        if (entry.selectors.length < perPage) entry.selectors.push({ selector: row.selector, count: row.count });
      }
      return [...byPage.values()].sort((a, b) => b.total - a.total).slice(0, maxPages);
    },
    /** Per UTC day from `now - days`, the share of deciding visitors who allowed each category. */
    consentStats(now: number, days: number): DayShares[] {
      const first = Math.floor(now / DAY_MS) - days + 1;
      const records: CategoryRecord[] = categoryRecords
        .all((first + days) * DAY_MS)
        .map((r) => ({ ...r, granted: r.granted === 1 }));
      return dailyConsentShares(records, first * DAY_MS, days, DAY_MS).map((d) => ({ ...d, day: isoDay(Number(d.day)) }));
    },
    consents(filter: ConsentFilter): ConsentEntry[] {
      return consentRows.all(filter).map((row) => ({
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
    erase: (pseudonym: string) => erase(pseudonym),
    /** Delete form consents and presence data (heartbeats, then sessions left without any) older than `before`. */
    expire: (before: number) => expire(before),
    /** Delete clicks older than `before` (the heatmap's retention). */
    expireClicks: (before: number) => expireClicks.run(before).changes,
    /** Delete cookie-consent records (session, user agent, address: the proof of consent) older than `before`. */
    expireCookieConsents: (before: number) => expireCookieConsents.run(before).changes,
  };
}

/** The admin queries of one database. */
export type AdminQueries = ReturnType<typeof createAdminQueries>;

/** `YYYY-MM-DD` of a UTC time. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
