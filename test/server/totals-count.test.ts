import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { hoursOf } from '../../collector/server/calendar';
import { clicksStore } from '../../collector/server/store/clicks';
import { consentsStore } from '../../collector/server/store/consents';
import { postgresReader, postgresSql } from '../../collector/server/store/postgres';
import type { Sql } from '../../collector/server/store/sql';
import { sqliteSql } from '../../collector/server/store/sqlite';
import { visitsStore } from '../../collector/server/store/visits';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';
import { driveDashboardScenario } from '../support/dashboard-scenario';

// What a build keeps for each day is what the builder's count of that day gives (each area's
// countForTotals and dayTotals, counted on the readers' side and read into the collector): on SQLite
// the builder writes those rows; on PostgreSQL it counts and inserts them in the database server
// (each area's keepForTotals), and this compares the two, row by row, on the dashboard scenario (in
// Europe/Berlin: clicks, consents, every dimension) with the day the clocks went forward (23 hours)
// and a day counted again after a late write.

let h: Harness;
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await closeHarness(h);
});

const ZONE = 'Europe/Berlin';
const SITE = 'http://lichtwerk.test';

/** The builder's count of the stores on the collector's database, from a connection of the test's own. */
function stores() {
  let sql: Sql;
  if (h.databaseUrl) {
    const reader = postgresReader(h.databaseUrl);
    sql = postgresSql(h.databaseUrl, 1);
    closers.push(
      () => reader.close(),
      () => sql.close(),
    );
    return { sql, visits: visitsStore(sql, reader), clicks: clicksStore(sql, reader), consents: consentsStore(sql, reader) };
  }
  const db = new Database(h.dbPath, { readonly: true });
  closers.push(() => db.close());
  sql = sqliteSql(db);
  return { sql, visits: visitsStore(sql, sql), clicks: clicksStore(sql, sql), consents: consentsStore(sql, sql) };
}

/** Each built day's rows in stats_visits, stats_clicks and stats_consents, and the rows its count gives; both sorted. */
async function keptAndCounted() {
  const { sql, visits, clicks, consents } = stores();
  const built = await sql.all<{ day: string; start_at: number; end_at: number }>(
    'SELECT day, start_at, end_at FROM stats_built WHERE length(day) = 10 ORDER BY day',
  );
  const days = built.map((b) => ({ day: b.day, start: Number(b.start_at), end: Number(b.end_at) }));
  const hours = (day: (typeof days)[number]) => hoursOf(ZONE, day);
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
}

describe('the day totals a build keeps', () => {
  it("are the rows the builder's count of each day gives: the dashboard scenario, a day of 23 hours, a day counted again", async () => {
    h = await startCollector({ trustProxy: true, visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
    const admin = await signIn(h.url);
    expect((await admin.post('/admin/api/settings', { timeZone: ZONE })).status).toBe(200);
    // 30 March 2025 in Berlin (23 hours, no 02:00): views at 01:30 CET and 03:30 CEST, a page with a query
    for (const [at, page] of [
      ['2025-03-30T00:30:00Z', `${SITE}/`],
      ['2025-03-30T01:30:00Z', `${SITE}/?q=fruehling`],
    ] as const) {
      h.clock.now = Date.parse(at);
      await h.visitor().beat(page, true);
    }
    await driveDashboardScenario(h);
    await h.buildTotals();
    const first = await keptAndCounted();
    // from 30 March to yesterday (19 May in Berlin)
    expect(first.days[0]).toBe('2025-03-30');
    expect(first.days.at(-1)).toBe('2025-05-19');
    expect(first.kept.length).toBeGreaterThan(50);
    expect(first.kept.filter((row) => row.startsWith('["stats_clicks"'))).not.toEqual([]);
    expect(first.kept.filter((row) => row.startsWith('["stats_consents"'))).not.toEqual([]);
    expect(first.kept.filter((row) => row.startsWith('["stats_visits","2025-03-30","hour"'))).toHaveLength(2);
    expect(first.kept).toEqual(first.counted);

    // a page view of yesterday still open (a late write): yesterday is counted again, its rows replaced
    const late = h.visitor();
    h.clock.now = Date.parse('2025-05-19T21:50:00Z'); // 23:50 in Berlin
    await late.beat(`${SITE}/kontakt.html`, true);
    h.clock.now = Date.parse('2025-05-19T22:05:00Z'); // 00:05 on the 20th: the view of the 19th goes on
    await late.beat(`${SITE}/kontakt.html`);
    h.clock.now = Date.parse('2025-05-20T10:00:00Z');
    expect(await h.query('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 1 }]);
    await h.buildTotals();
    expect(await h.query('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 0 }]);
    const again = await keptAndCounted();
    expect(again.kept).toEqual(again.counted);
    expect(again.kept).not.toEqual(first.kept);
  });
});
