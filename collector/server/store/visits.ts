import type { Migration } from './migrate';
import { typed } from './migrate';
import type { RetentionStep } from './retention';
import { builtDays, dayTable, noteLate, type Day, type Range } from './rollups';
import type { Reads, Sql } from './sql';
import type { AgentInfo, Heartbeat, Presence, UtmField, Visitor } from './types';
import { UTM_FIELDS } from './types';

/**
 * The visits area: sessions (a visitor's browser session, stored as the SHA-256 of its cookie),
 * visits, page views, presence, and their day totals.
 *
 * - A **page view** is the first heartbeat of a page (`initialize=true`); its `last_at` moves with
 *   each later heartbeat of the page (time on page).
 * - A **visit** is a session's page views with no gap over 30 minutes (VISIT_GAP_MS), as Plausible,
 *   Matomo and Google Analytics count; it carries what the dashboard groups visits by: entry and
 *   exit page, the first page view's referring host and campaign, device, browser and window width.
 *   Issue-style additions (a country, say) are columns of `visits`, added by a migration.
 * - **Presence** rows (every heartbeat) feed only the live counts and go after an hour.
 */

/** A page view more than this after the session's previous one starts a new visit. */
export const VISIT_GAP_MS = 30 * 60 * 1000;
/** How often presence rows are pruned, at most. */
const PRUNE_EVERY_MS = 60_000;
/** The total of sessions ever (a badge) is counted again at most this often: COUNT(*) is a scan. */
const TOTAL_EVERY_MS = 10_000;
/** Screen size classes by the window's outer width (device_width), in CSS px; the last has no upper end. */
export const SCREEN_CLASSES = [
  { label: '< 600', below: 600 },
  { label: '600–1023', below: 1024 },
  { label: '1024–1439', below: 1440 },
  { label: '≥ 1440', below: null },
] as const;
const SCREEN = `CASE WHEN v.screen_width IS NULL THEN 'unknown' ${SCREEN_CLASSES.map((c) => (c.below === null ? `ELSE '${c.label}'` : `WHEN v.screen_width < ${c.below} THEN '${c.label}'`)).join(' ')} END`;

/** What the dashboard groups visits by: metric name and the `visits` column (or expression) of its label. */
export const VISIT_DIMENSIONS = {
  entry: 'v.entry_page',
  exit: 'v.exit_page',
  referrer: 'v.referrer',
  utm_source: 'v.utm_source',
  utm_medium: 'v.utm_medium',
  utm_campaign: 'v.utm_campaign',
  utm_term: 'v.utm_term',
  utm_content: 'v.utm_content',
  device: "COALESCE(v.device, 'unknown')",
  browser: "COALESCE(v.browser, 'unknown')",
  screen: SCREEN,
} as const;
export type VisitDimension = keyof typeof VISIT_DIMENSIONS;

export const VISITS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions and heartbeats',
    sql: typed(`
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
    `),
  },
  {
    version: 3,
    name: 'dashboard: devices, time on page, referrers, campaigns',
    sql: typed(`
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
    `),
    // migration 3 ran these on stored data (the parser and the page rules are the visitor feature's
    // today, so the store keeps what it needs of them: see legacy.ts)
  },
  {
    version: 4,
    name: 'visits: page views, visits and presence apart; day totals',
    sql: typed(`
      CREATE TABLE visits (
        id \${ID},
        session_id TEXT NOT NULL REFERENCES sessions (id),
        started_at \${TIME} NOT NULL,
        last_view_at \${TIME} NOT NULL,
        views INTEGER NOT NULL,
        entry_page TEXT NOT NULL,
        exit_page TEXT NOT NULL,
        referrer TEXT,
        utm_source TEXT,
        utm_medium TEXT,
        utm_campaign TEXT,
        utm_term TEXT,
        utm_content TEXT,
        device TEXT,
        browser TEXT,
        screen_width INTEGER
      );
      CREATE INDEX visits_session ON visits (session_id, started_at);
      CREATE INDEX visits_started ON visits (started_at);
      CREATE TABLE page_views (
        id \${ID},
        visit_id BIGINT NOT NULL REFERENCES visits (id),
        session_id TEXT NOT NULL,
        page TEXT NOT NULL,
        at \${TIME} NOT NULL,
        last_at \${TIME} NOT NULL
      );
      CREATE INDEX page_views_at ON page_views (at, page);
      CREATE INDEX page_views_session ON page_views (session_id, page, at);
      CREATE INDEX page_views_visit ON page_views (visit_id);
      CREATE TABLE presence (
        id \${ID},
        session_id TEXT NOT NULL,
        page TEXT NOT NULL,
        at \${TIME} NOT NULL
      );
      CREATE INDEX presence_page_at ON presence (page, at);
      CREATE INDEX presence_at ON presence (at);
      CREATE TABLE stats_visits (
        day TEXT NOT NULL,
        metric TEXT NOT NULL,
        label TEXT NOT NULL,
        n BIGINT NOT NULL,
        total BIGINT NOT NULL,
        PRIMARY KEY (day, metric, label)
      );
    `),
    then: splitHeartbeats,
  },
];

/** The visits area on an open database. */
export function visitsStore(sql: Sql, reads: Reads) {
  let prunedAt = Number.NEGATIVE_INFINITY;
  let total: { n: number; at: number; counting: Promise<number> | null } = { n: 0, at: Number.NEGATIVE_INFINITY, counting: null };
  const countTotal = (at: number): Promise<number> => {
    if (at - total.at < TOTAL_EVERY_MS) return Promise.resolve(total.n);
    total.counting ??= sql
      .get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions')
      .then((row) => {
        total = { n: row!.n, at, counting: null };
        return total.n;
      })
      .finally(() => {
        total.counting = null;
      });
    return total.counting;
  };

  /** Raw totals of the days (page views, visitors, visits) per day index: what a built day keeps. */
  async function countDays(
    days: readonly Range[],
  ): Promise<Array<{ i: number; metric: string; label: string; n: number; total: number }>> {
    if (days.length === 0) return [];
    const d = dayTable(days);
    const dimensions = Object.entries(VISIT_DIMENSIONS)
      .map(
        ([metric, label]) =>
          `SELECT d.i AS i, '${metric}' AS metric, ${label} AS label, COUNT(*) AS n, 0 AS total
           FROM d JOIN visits v ON v.started_at >= d.s AND v.started_at < d.e WHERE ${label} IS NOT NULL GROUP BY d.i, ${label}`,
      )
      .join(' UNION ALL ');
    return reads.all(
      `WITH ${d.sql}
       SELECT d.i AS i, 'page' AS metric, p.page AS label, COUNT(*) AS n, SUM(p.last_at - p.at) AS total
       FROM d JOIN page_views p ON p.at >= d.s AND p.at < d.e GROUP BY d.i, p.page
       UNION ALL
       SELECT d.i, 'visitors', '', COUNT(DISTINCT p.session_id), 0 FROM d JOIN page_views p ON p.at >= d.s AND p.at < d.e GROUP BY d.i
       UNION ALL
       SELECT d.i, 'visits', '', COUNT(*), SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END)
       FROM d JOIN visits v ON v.started_at >= d.s AND v.started_at < d.e GROUP BY d.i
       UNION ALL ${dimensions}`,
      d.params,
    );
  }

  /** Page views and visitors per hour of a day, counted from the stored rows. */
  async function countHours(hours: readonly Range[]): Promise<Array<{ views: number; visitors: number }>> {
    if (hours.length === 0) return [];
    const d = dayTable(hours);
    const rows = await reads.all<{ i: number; views: number; visitors: number }>(
      `WITH ${d.sql} SELECT d.i AS i, COUNT(*) AS views, COUNT(DISTINCT p.session_id) AS visitors
       FROM d JOIN page_views p ON p.at >= d.s AND p.at < d.e GROUP BY d.i`,
      d.params,
    );
    const byIndex = new Map(rows.map((r) => [r.i, r]));
    return hours.map((_, i) => ({ views: byIndex.get(i)?.views ?? 0, visitors: byIndex.get(i)?.visitors ?? 0 }));
  }

  return {
    /**
     * One heartbeat: the session, a presence row, and for a page view (`initialize`) the page view
     * in its visit (a new one after 30 minutes without a page view). A later beat moves its page
     * view's `last_at`. Writes that change a day before `lateBefore` (the start of the site's
     * today: possibly built already) are noted for the day totals.
     */
    recordHeartbeat: (visitor: Visitor, beat: Heartbeat, at: number, lateBefore: number) =>
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
        await tx.run('INSERT INTO presence (session_id, page, at) VALUES (?, ?, ?)', [visitor.session, beat.page, at]);
        if (!beat.initialize) {
          // still on the page: its page view lasts until now (the presence rows go after an hour, this stays)
          const view = await tx.get<{ at: number }>(
            `UPDATE page_views SET last_at = ? WHERE id = (
               SELECT id FROM page_views WHERE session_id = ? AND page = ? ORDER BY at DESC, id DESC LIMIT 1)
             RETURNING at`,
            [at, visitor.session, beat.page],
          );
          if (view && view.at < lateBefore) await noteLate(tx, view.at, at);
          return;
        }
        const last = await tx.get<{ id: number; started_at: number; last_view_at: number }>(
          'SELECT id, started_at, last_view_at FROM visits WHERE session_id = ? ORDER BY started_at DESC, id DESC LIMIT 1',
          [visitor.session],
        );
        let visit: number;
        if (last && at - last.last_view_at <= VISIT_GAP_MS) {
          visit = last.id;
          await tx.run('UPDATE visits SET views = views + 1, exit_page = ?, last_view_at = ? WHERE id = ?', [
            beat.page,
            at,
            visit,
          ]);
          if (last.started_at < lateBefore) await noteLate(tx, last.started_at, at);
        } else {
          const utm = beat.utm;
          visit = (await tx.get<{ id: number }>(
            `INSERT INTO visits (session_id, started_at, last_view_at, views, entry_page, exit_page, referrer,
               utm_source, utm_medium, utm_campaign, utm_term, utm_content, device, browser, screen_width)
             VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
            [
              visitor.session,
              at,
              at,
              beat.page,
              beat.page,
              beat.referrer ?? null,
              ...UTM_FIELDS.map((f) => utm?.[f] ?? null),
              agent?.device ?? null,
              agent?.browser ?? null,
              beat.deviceWidth,
            ],
          ))!.id;
        }
        await tx.run('INSERT INTO page_views (visit_id, session_id, page, at, last_at) VALUES (?, ?, ?, ?, ?)', [
          visit,
          visitor.session,
          beat.page,
          at,
          at,
        ]);
      }),
    /** Whether the session has a page view of `page`: a click belongs to one (the bundle records clicks after its first heartbeat). */
    viewed: async (session: string, page: string) =>
      (await sql.get('SELECT 1 AS found FROM page_views WHERE session_id = ? AND page = ? LIMIT 1', [session, page])) !==
      undefined,
    /** Sessions seen on `page` and on the whole site since `since`, and ever (counted again at most every 10 s). */
    async presence(page: string, since: number, at: number): Promise<Presence> {
      const [onPage, online, ever] = await Promise.all([
        sql.get<{ n: number }>('SELECT COUNT(DISTINCT session_id) AS n FROM presence WHERE page = ? AND at >= ?', [page, since]),
        sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE last_seen >= ?', [since]),
        countTotal(at),
      ]);
      return { onPage: onPage!.n, online: online!.n, total: Math.max(ever, online!.n) };
    },
    /** Delete presence rows older than `before`; at most once a minute of `at` (per process). Returns how many went. */
    async prunePresence(before: number, at: number): Promise<number> {
      if (at - prunedAt < PRUNE_EVERY_MS) return 0;
      prunedAt = at;
      return sql.run('DELETE FROM presence WHERE at < ?', [before]);
    },
    /** Sessions with a heartbeat since `since`, overall and per page (the 20 busiest). */
    async online(since: number) {
      const [count, pages] = await Promise.all([
        sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE last_seen >= ?', [since]),
        sql.all<{ page: string; visitors: number }>(
          'SELECT page, COUNT(DISTINCT session_id) AS visitors FROM presence WHERE at >= ? GROUP BY page ORDER BY visitors DESC, page LIMIT 20',
          [since],
        ),
      ]);
      return { online: count!.n, pages };
    },

    /**
     * The totals of `days` (whole days of the site's calendar): from the day totals where built,
     * counted from the stored rows for the others. Per metric and label: `n` (page views, visitors,
     * visits or visits by label) and `total` (time on page in ms for page views, bounces for visits).
     */
    async totals(days: readonly Day[]): Promise<Map<string, Map<string, { n: number; total: number }>>> {
      const { built, raw } = await builtDays(reads, days);
      const out = new Map<string, Map<string, { n: number; total: number }>>();
      const add = (metric: string, label: string, n: number, total: number) => {
        const labels = out.get(metric) ?? new Map<string, { n: number; total: number }>();
        out.set(metric, labels);
        const sum = labels.get(label) ?? { n: 0, total: 0 };
        labels.set(label, { n: sum.n + Number(n), total: sum.total + Number(total) });
      };
      if (built.length > 0) {
        // the range from the first built day to the last: only built days have rows
        const rows = await reads.all<{ metric: string; label: string; n: number; total: number }>(
          `SELECT metric, label, SUM(n) AS n, SUM(total) AS total FROM stats_visits
           WHERE day >= ? AND day <= ? AND metric <> 'hour' GROUP BY metric, label`,
          [built[0]!.day, built[built.length - 1]!.day],
        );
        for (const r of rows) add(r.metric, r.label, r.n, r.total);
      }
      for (const r of await countDays(raw)) add(r.metric, r.label, r.n, r.total);
      return out;
    },
    /** Page views and visitors of each day. */
    async perDay(days: readonly Day[]): Promise<Map<string, { views: number; visitors: number }>> {
      const { built, raw } = await builtDays(reads, days);
      const out = new Map<string, { views: number; visitors: number }>(days.map((d) => [d.day, { views: 0, visitors: 0 }]));
      if (built.length > 0) {
        const rows = await reads.all<{ day: string; metric: string; n: number }>(
          "SELECT day, metric, SUM(n) AS n FROM stats_visits WHERE day >= ? AND day <= ? AND metric IN ('page', 'visitors') GROUP BY day, metric",
          [built[0]!.day, built[built.length - 1]!.day],
        );
        for (const r of rows) {
          const entry = out.get(r.day);
          if (entry) entry[r.metric === 'page' ? 'views' : 'visitors'] = Number(r.n);
        }
      }
      for (const r of await countDays(raw)) {
        const entry = out.get(raw[r.i]!.day)!;
        if (r.metric === 'page') entry.views += Number(r.n);
        if (r.metric === 'visitors') entry.visitors = Number(r.n);
      }
      return out;
    },
    /** Page views and visitors per hour of one day (`hours`: the day's hours, 23 to 25). */
    async perHour(day: Day, hours: readonly Range[]): Promise<Array<{ views: number; visitors: number }>> {
      const { built } = await builtDays(reads, [day]);
      if (built.length === 0) return countHours(hours);
      const rows = await reads.all<{ label: string; n: number; total: number }>(
        "SELECT label, n, total FROM stats_visits WHERE day = ? AND metric = 'hour'",
        [day.day],
      );
      const byHour = new Map(rows.map((r) => [Number(r.label), r]));
      return hours.map((_, i) => ({ views: Number(byHour.get(i)?.n ?? 0), visitors: Number(byHour.get(i)?.total ?? 0) }));
    },

    /** The day totals of `days`, counted from the stored rows (the builder reads these, then `keepTotals`). */
    async countForTotals(days: readonly Day[], hoursOf: (day: Day) => Range[]) {
      const rows = await countDays(days);
      const perDay = days.map((day) => ({ day: day.day, rows: [] as Array<[string, string, number, number]> }));
      for (const r of rows) perDay[r.i]!.rows.push([r.metric, r.label, Number(r.n), Number(r.total)]);
      for (const [i, day] of days.entries()) {
        const hours = await countHours(hoursOf(day));
        hours.forEach((h, hour) => {
          if (h.views > 0) perDay[i]!.rows.push(['hour', String(hour), h.views, h.visitors]);
        });
      }
      return perDay;
    },
    /** Replace the day totals of one day (inside the builder's transaction). */
    async keepTotals(tx: Sql, day: string, rows: ReadonlyArray<readonly [string, string, number, number]>): Promise<void> {
      await tx.run('DELETE FROM stats_visits WHERE day = ?', [day]);
      for (let i = 0; i < rows.length; i += 200) {
        const part = rows.slice(i, i + 200);
        await tx.run(
          `INSERT INTO stats_visits (day, metric, label, n, total) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          part.flatMap((r) => [day, ...r]),
        );
      }
    },
    /** The earliest page view kept, if any (where the builder starts). */
    earliest: async () => (await reads.get<{ at: number | null }>('SELECT MIN(at) AS at FROM page_views'))?.at ?? null,

    /** The sessions whose pseudonym (first 12 hex characters) is `pseudonym`. */
    sessionsOf: async (pseudonym: string) =>
      (await sql.all<{ id: string }>('SELECT id FROM sessions WHERE id >= ? AND id < ?', [pseudonym, `${pseudonym}g`])).map(
        (r) => r.id,
      ),
    /** Delete everything of these sessions (inside the erasure's transaction); returns how many rows went. */
    async erase(tx: Sql, sessions: readonly string[]): Promise<number> {
      let records = 0;
      for (const session of sessions) {
        for (const table of ['page_views', 'presence', 'visits'])
          records += await tx.run(`DELETE FROM ${table} WHERE session_id = ?`, [session]);
        records += await tx.run('DELETE FROM sessions WHERE id = ?', [session]);
      }
      return records;
    },
    /**
     * Retention: page views, then visits left without any, presence, then sessions not seen since
     * `before` and left without a visit. In steps of a few thousand rows (retention.ts).
     */
    retention: (before: number): RetentionStep[] => [
      { name: 'pageViews', table: 'page_views', where: 'at < ?', params: [before] },
      {
        name: 'visits',
        table: 'visits',
        where: 'last_view_at < ? AND NOT EXISTS (SELECT 1 FROM page_views p WHERE p.visit_id = visits.id)',
        params: [before],
      },
      { name: 'presence', table: 'presence', where: 'at < ?', params: [before] },
      {
        name: 'sessions',
        table: 'sessions',
        where: 'last_seen < ? AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.session_id = sessions.id)',
        params: [before],
      },
    ],
    /** Drop every day total (the time zone changed: days are counted again). */
    clearTotals: (tx: Sql) => tx.run('DELETE FROM stats_visits'),
  };
}

export type VisitsStore = ReturnType<typeof visitsStore>;

/**
 * Migration 4: page views out of `heartbeats` into `page_views`, grouped into visits (30 minutes),
 * each visit with its first page view's referrer and campaign and its session's device; the last
 * hour's heartbeats into `presence`; then `heartbeats` goes. In JavaScript, a session at a time in
 * the order of its page views, in pages of 5,000 rows.
 */
async function splitHeartbeats(tx: Sql, now: number): Promise<void> {
  type Row = {
    id: number;
    session_id: string;
    page: string;
    at: number;
    last_at: number | null;
    referrer: string | null;
  } & Record<UtmField, string | null> & { device: string | null; browser: string | null; device_width: number | null };
  let after: [string, number, number] = ['', Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
  let current: { visit: number; session: string; last: number } | null = null;
  for (;;) {
    const rows = await tx.all<Row>(
      `SELECT h.id, h.session_id, h.page, h.at, h.last_at, h.referrer, h.utm_source, h.utm_medium, h.utm_campaign, h.utm_term,
         h.utm_content, s.device, s.browser, s.device_width
       FROM heartbeats h LEFT JOIN sessions s ON s.id = h.session_id
       WHERE h.initialize = 1 AND (h.session_id > ? OR (h.session_id = ? AND (h.at > ? OR (h.at = ? AND h.id > ?))))
       ORDER BY h.session_id, h.at, h.id LIMIT 5000`,
      [after[0], after[0], after[1], after[1], after[2]],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      if (!current || current.session !== row.session_id || row.at - current.last > VISIT_GAP_MS) {
        const id = (await tx.get<{ id: number }>(
          `INSERT INTO visits (session_id, started_at, last_view_at, views, entry_page, exit_page, referrer,
             utm_source, utm_medium, utm_campaign, utm_term, utm_content, device, browser, screen_width)
           VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          [
            row.session_id,
            row.at,
            row.at,
            row.page,
            row.page,
            row.referrer,
            ...UTM_FIELDS.map((f) => row[f]),
            row.device,
            row.browser,
            row.device_width,
          ],
        ))!.id;
        current = { visit: id, session: row.session_id, last: row.at };
      }
      current.last = row.at;
      await tx.run('UPDATE visits SET views = views + 1, exit_page = ?, last_view_at = ? WHERE id = ?', [
        row.page,
        row.at,
        current.visit,
      ]);
      await tx.run('INSERT INTO page_views (visit_id, session_id, page, at, last_at) VALUES (?, ?, ?, ?, ?)', [
        current.visit,
        row.session_id,
        row.page,
        row.at,
        row.last_at ?? row.at,
      ]);
    }
    const last = rows[rows.length - 1]!;
    after = [last.session_id, last.at, last.id];
  }
  await tx.run('INSERT INTO presence (session_id, page, at) SELECT session_id, page, at FROM heartbeats WHERE at >= ?', [
    now - 60 * 60 * 1000,
  ]);
  await tx.exec('DROP TABLE heartbeats');
}

export type { AgentInfo };
