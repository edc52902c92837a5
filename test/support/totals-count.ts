import Database from 'better-sqlite3';
import { hoursOf } from '../../collector/server/calendar';
import { clicksStore } from '../../collector/server/store/clicks';
import { consentsStore } from '../../collector/server/store/consents';
import { postgresReader, postgresSql } from '../../collector/server/store/postgres';
import type { Sql } from '../../collector/server/store/sql';
import { sqliteSql } from '../../collector/server/store/sqlite';
import { visitsStore } from '../../collector/server/store/visits';
import type { Harness } from './collector';

// What a build kept against what the count on the readers' side gives for the same days
// (test/server/totals-count.test.ts, totals-timeout.postgres.test.ts): on SQLite the builder writes
// the rows of each area's countForTotals and dayTotals; on PostgreSQL it counts and inserts them in
// the database server (each area's keepForTotals), and these must be the same rows.

/** The builder's count of the stores on the collector's database, from connections of the caller's own (`close` ends them). */
function stores(h: Pick<Harness, 'databaseUrl' | 'dbPath'>) {
  if (h.databaseUrl) {
    const reader = postgresReader(h.databaseUrl);
    const sql = postgresSql(h.databaseUrl, 1);
    return {
      sql,
      visits: visitsStore(sql, reader),
      clicks: clicksStore(sql, reader),
      consents: consentsStore(sql, reader),
      close: () => Promise.all([reader.close(), sql.close()]),
    };
  }
  const db = new Database(h.dbPath, { readonly: true });
  const sql: Sql = sqliteSql(db);
  return {
    sql,
    visits: visitsStore(sql, sql),
    clicks: clicksStore(sql, sql),
    consents: consentsStore(sql, sql),
    close: () => db.close(),
  };
}

/**
 * Each built day's rows in stats_visits, stats_clicks and stats_consents, and the rows its count
 * gives (the days of `zone`); both sorted.
 */
export async function keptAndCounted(h: Pick<Harness, 'databaseUrl' | 'dbPath'>, zone: string) {
  const { sql, visits, clicks, consents, close } = stores(h);
  try {
    const built = await sql.all<{ day: string; start_at: number; end_at: number }>(
      'SELECT day, start_at, end_at FROM stats_built WHERE length(day) = 10 ORDER BY day',
    );
    const days = built.map((b) => ({ day: b.day, start: Number(b.start_at), end: Number(b.end_at) }));
    const hours = (day: (typeof days)[number]) => hoursOf(zone, day);
    const [v, c, k] = await Promise.all([
      visits.countForTotals(days, hours),
      clicks.countForTotals(days),
      consents.countForTotals(days, hours),
    ]);
    const line = (table: string, day: string, row: readonly unknown[]) =>
      JSON.stringify([table, day, ...row.map((x) => (typeof x === 'number' || typeof x === 'bigint' ? Number(x) : x))]);
    const counted = days.flatMap((day, i) =>
      [visits.dayTotals(v[i]!.rows), clicks.dayTotals(c[i]!.rows), consents.dayTotals(k[i]!.rows)].flatMap((t) =>
        t.rows.map((row) => line(t.table, day.day, row)),
      ),
    );
    const kept: string[] = [];
    for (const [table, columns] of [
      ['stats_visits', 'metric, label, n, total'],
      ['stats_clicks', 'page, selector, clicks, visitors, last_at'],
      ['stats_consents', 'hour, deciders, on1, on2, on3, on4'],
    ] as const)
      for (const row of await sql.all<Record<string, unknown>>(`SELECT day, ${columns} FROM ${table} WHERE length(day) = 10`))
        kept.push(line(table, row.day as string, Object.values(row).slice(1)));
    return { days: days.map((d) => d.day), kept: kept.sort(), counted: counted.sort() };
  } finally {
    await close();
  }
}
