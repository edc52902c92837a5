import type { Migration } from './migrate';
import { typed } from './migrate';
import type { Sql } from './sql';
import { UTM_FIELDS, type LegacyParsers, type UtmField } from './types';
import { VISIT_GAP_MS } from './visits-beat';

/** The visits area's tables: sessions, visits, page views, presence, their day totals. */
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
  {
    version: 6,
    name: 'visits: country and operating system',
    // the country's ISO 3166-1 alpha-2 code from the address at ingest (the address is not kept
    // whole for it), the operating system from the user agent; null: unknown, or before this version
    sql: () => `
      ALTER TABLE sessions ADD COLUMN os TEXT;
      ALTER TABLE visits ADD COLUMN country TEXT;
      ALTER TABLE visits ADD COLUMN os TEXT;
    `,
  },
  {
    version: 8,
    name: 'indexes for filtered reads',
    // for the filtered reads (visits-totals.ts countDays): the matching visits that began before the
    // first day and went on into it (their page views count), from the index alone; and whether a
    // visit has a view of a page, from the index alone (a page filter asks it of each visit)
    sql: () => `
      CREATE INDEX visits_last_view ON visits (last_view_at, started_at);
      DROP INDEX page_views_visit;
      CREATE INDEX page_views_visit ON page_views (visit_id, page);
    `,
  },
  {
    version: 9,
    name: 'filtered month totals',
    // per whole month (by its start in the site's zone) and single filter (dimension, value), the
    // figures of visits-totals.ts countDays (visits-filtered.ts); the months whose totals are
    // complete. Months built before are counted by the next run of the builder. On SQLite without a
    // rowid: the key is the table (half the size of a table beside its key's index)
    sql: (engine) =>
      typed(`
      CREATE TABLE stats_visits_by (
        start_at \${TIME} NOT NULL,
        dimension TEXT NOT NULL,
        value TEXT NOT NULL,
        metric TEXT NOT NULL,
        label TEXT NOT NULL,
        n BIGINT NOT NULL,
        total BIGINT NOT NULL,
        PRIMARY KEY (start_at, dimension, value, metric, label)
      )\${ROWS};
      CREATE TABLE stats_visits_by_built (
        month TEXT PRIMARY KEY,
        start_at \${TIME} NOT NULL,
        end_at \${TIME} NOT NULL,
        built_at \${TIME} NOT NULL
      );
    `)(engine).replace('${ROWS}', engine === 'sqlite' ? ' WITHOUT ROWID' : ''),
  },
];

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
  // the order the pages are read in, as an index (dropped with the table at the end)
  await tx.exec('CREATE INDEX heartbeats_split ON heartbeats (session_id, at, id) WHERE initialize = 1');
  for (;;) {
    const rows = await tx.all<Row>(
      `SELECT h.id, h.session_id, h.page, h.at, h.last_at, h.referrer, h.utm_source, h.utm_medium, h.utm_campaign, h.utm_term,
         h.utm_content, s.device, s.browser, s.device_width
       FROM heartbeats h LEFT JOIN sessions s ON s.id = h.session_id
       WHERE h.initialize = 1 AND (h.session_id, h.at, h.id) > (?, ?, ?)
       ORDER BY h.session_id, h.at, h.id LIMIT 5000`,
      after,
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

/**
 * Migration 5: where visitors came from, from the bundle's `referrer` field (docs/collector.md
 * "Sources"): each visit keeps the referring path beside its host, and the source name (Google,
 * or the host without `www.`). Visits stored before it get their source from their host; the day
 * totals already built get `source` rows from their `referrer` rows (host labels), so past days
 * show under the same names without being counted again.
 */
export function referrerMigration5(parsers: LegacyParsers): Migration {
  return {
    version: 5,
    name: 'visits: referring path and source',
    sql: () => `
      ALTER TABLE visits ADD COLUMN referrer_path TEXT;
      ALTER TABLE visits ADD COLUMN source TEXT;
    `,
    then: async (tx) => {
      const hosts = await tx.all<{ referrer: string }>('SELECT DISTINCT referrer FROM visits WHERE referrer IS NOT NULL');
      for (const { referrer } of hosts)
        await tx.run('UPDATE visits SET source = ? WHERE referrer = ?', [parsers.source(referrer), referrer]);
      const rows = await tx.all<{ day: string; label: string; n: number; total: number }>(
        "SELECT day, label, n, total FROM stats_visits WHERE metric = 'referrer'",
      );
      const sums = new Map<string, { day: string; source: string; n: number; total: number }>();
      for (const row of rows) {
        const source = parsers.source(row.label);
        const key = JSON.stringify([row.day, source]);
        const sum = sums.get(key) ?? { day: row.day, source, n: 0, total: 0 };
        sums.set(key, { ...sum, n: sum.n + Number(row.n), total: sum.total + Number(row.total) });
      }
      for (const sum of sums.values())
        await tx.run("INSERT INTO stats_visits (day, metric, label, n, total) VALUES (?, 'source', ?, ?, ?)", [
          sum.day,
          sum.source,
          sum.n,
          sum.total,
        ]);
    },
  };
}
