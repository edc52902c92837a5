import type { Migration } from './migrate';
import type { Sql } from './sql';
import { UTM_FIELDS, type LegacyParsers, type UtmField } from './types';
import { VISIT_GAP_MS } from './visits-beat';

/**
 * The visits area's migrations of stored data (visits-schema.ts has its tables): version 4's move
 * of the heartbeats into page views, visits and presence, and version 5, the referring path and
 * source of the visits and day totals stored before it.
 */

/**
 * Migration 4: page views out of `heartbeats` into `page_views`, grouped into visits (30 minutes),
 * each visit with its first page view's referrer and campaign and its session's device; the last
 * hour's heartbeats into `presence`; then `heartbeats` goes. In JavaScript, a session at a time in
 * the order of its page views, in pages of 5,000 rows.
 */
export async function splitHeartbeats(tx: Sql, now: number): Promise<void> {
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
