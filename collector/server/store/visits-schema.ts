import type { Migration } from './migrate';
import { typed } from './migrate';
import { splitHeartbeats } from './visits-data-migrations';

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
    // for the filtered reads (visits-row-counts.ts countDays): the matching visits that began before the
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
    // figures of visits-row-counts.ts countDays (visits-filtered.ts); the months whose totals are
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
