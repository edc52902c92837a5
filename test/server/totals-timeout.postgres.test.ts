import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_OPTIONS } from '../../collector/server/app';
import { createReporter } from '../../collector/server/edge/log';
import { createJobs } from '../../collector/server/jobs';
import { createStore, type Store } from '../../collector/server/store';
import { postgresReader } from '../../collector/server/store/postgres';
import { countFilteredMonth } from '../../collector/server/store/visits-filtered';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';
import { driveDashboardScenario } from '../support/dashboard-scenario';
import { queryPostgres } from '../support/postgres';
import { keptAndCounted } from '../support/totals-count';

// The day-totals build on PostgreSQL counts in the database server on a connection of the writers'
// pool, which has no statement timeout; each statement of a build is bounded by its own
// (store/totals-timeout.ts). Here a second collector process's store (the option's bound: 1 s)
// builds the totals of the collector under test while a count of it stalls (a trigger of the test's
// sleeps in the statement that inserts the counted rows): the statement is cancelled (57014), the
// batch rolled back as a whole (the totals, marks and late-write notes as before), one line is
// logged, the heartbeats sent meanwhile are answered and kept, and the next run counts it again:
// first the days (the month's filtered totals stalling then), then, unstalled, the collector's own
// build with the default bound, whose totals are the readers' side's count. Before the bound, the
// build waited out every stall and kept its totals: no error, nothing to retry.

const ZONE = 'Europe/Berlin';
const SITE = 'http://lichtwerk.test';
/** The bound of the test's builder (totalsTimeoutMs), and the stall: longer than the bound, short enough to wait out. */
const TIMEOUT_MS = 1_000;
const STALL_S = 4;
/** The tables a build writes (the day and month totals, their marks, the late writes' notes; the filtered month totals). */
const TOTALS_TABLES = ['stats_visits', 'stats_clicks', 'stats_consents', 'stats_built', 'stats_dirty'];
const FILTERED_TABLES = ['stats_visits_by', 'stats_visits_by_built'];

let h: Harness;
let store: Store | null = null;
let watcher: pg.Client | null = null;
afterEach(async () => {
  await store?.close();
  await watcher?.end();
  store = watcher = null;
  await closeHarness(h);
});

/** Statements on the collector's database from a connection of the test's own. */
const sql = (text: string) => queryPostgres(h.databaseUrl!, text);

/**
 * Each statement that writes `table` sleeps `seconds` first, until unstall: the build's statement that
 * inserts its count into the table runs away (in the builder's transaction, only that one writes it).
 */
const stall = (table: string, seconds = STALL_S) =>
  sql(`CREATE OR REPLACE FUNCTION pp_test_stall() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN PERFORM pg_sleep(${seconds}); RETURN NULL; END $$;
       CREATE TRIGGER pp_test_stall BEFORE INSERT OR UPDATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION pp_test_stall()`);
const unstall = (table: string) => sql(`DROP TRIGGER pp_test_stall ON ${table}`);

/** Every row of `tables`, as text, sorted: what a rolled-back build must leave as it found. */
async function snapshot(tables: readonly string[]): Promise<string[]> {
  const rows: string[] = [];
  for (const table of tables) for (const row of await sql(`SELECT * FROM ${table}`)) rows.push(JSON.stringify([table, row]));
  return rows.sort();
}

/**
 * `build()` with a statement of it stalled: waits until the statement sleeps in the trigger (seen in
 * pg_stat_activity from the test's `watcher`), then sends a heartbeat of a new visitor and waits for
 * its answer. Answers whether the stall was seen, the heartbeat answered before the build ended, and
 * the build's time.
 */
async function whileStalled(build: () => Promise<void>): Promise<{ stalled: boolean; beatFirst: boolean; ms: number }> {
  const started = performance.now();
  let ended = false;
  const building = build().finally(() => void (ended = true));
  let stalled = false;
  for (let tries = 0; !stalled && !ended && tries < 500; tries++) {
    const { rows } = await watcher!.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'",
    );
    stalled = rows.length > 0;
    if (!stalled) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  let beatFirst = false;
  if (stalled) {
    await h.visitor().beat(`${SITE}/waehrend-des-builds.html`, true);
    beatFirst = !ended;
  }
  await building;
  return { stalled, beatFirst, ms: Math.round(performance.now() - started) };
}

describe('a day-totals build past its statement timeout, on PostgreSQL', () => {
  it('is cancelled and rolled back whole, logged once, the heartbeats meanwhile kept; the next run counts it again', async () => {
    h = await startCollector({ engine: 'postgres', trustProxy: true, visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
    const admin = await signIn(h.url);
    expect((await admin.post('/admin/api/settings', { timeZone: ZONE })).status).toBe(200);
    // the earliest view on 30 March (so April is a whole month of the builder's, with filtered totals), one in April
    h.clock.now = Date.parse('2025-03-30T00:30:00Z');
    await h.visitor().beat(`${SITE}/`, true);
    h.clock.now = Date.parse('2025-04-15T09:00:00Z');
    await h.visitor().beat(`${SITE}/ostern.html`, true);
    await driveDashboardScenario(h);
    await h.buildTotals();
    // a late write on 15 April (23:50 in Berlin, still open at 00:05): the day and April are counted again
    const late = h.visitor();
    h.clock.now = Date.parse('2025-04-15T21:50:00Z');
    await late.beat(`${SITE}/kontakt.html`, true);
    h.clock.now = Date.parse('2025-04-15T22:05:00Z');
    await late.beat(`${SITE}/kontakt.html`);
    h.clock.now = Date.parse('2025-05-20T10:00:00Z');
    expect(await sql('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 1 }]);

    // a second process's store on the same database, its build bounded to TIMEOUT_MS, its jobs run by hand
    store = createStore({ postgres: h.databaseUrl! }, { ...STORE_OPTIONS, totalsTimeoutMs: TIMEOUT_MS });
    const errors: unknown[] = [];
    const lines: string[] = [];
    const report = createReporter((line) => lines.push(line.split('\n')[0]!));
    const jobs = createJobs({
      store,
      now: () => h.clock.now,
      timers: { every: () => () => {} },
      retain: () => Promise.resolve(null),
      timeZone: () => Promise.resolve(ZONE),
      onError: (error, context) => {
        errors.push(error);
        report(error, context);
      },
    });
    watcher = new pg.Client({ connectionString: h.databaseUrl! });
    await watcher.connect();
    const views = async () => (await sql('SELECT COUNT(*) AS n FROM page_views'))[0]!.n as number;

    // 1. the day's count stalls: cancelled, the batch rolled back (15 April's old totals, its marks, the note)
    const before = await snapshot([...TOTALS_TABLES, ...FILTERED_TABLES]);
    const viewsBefore = await views();
    await stall('stats_visits');
    const days = await whileStalled(() => jobs.buildTotals());
    await unstall('stats_visits');
    console.log(
      `[totals-timeout postgres] bound ${TIMEOUT_MS} ms, stall ${STALL_S} s: the day's build ended after ${days.ms} ms, ` +
        `${errors.length} error(s): ${lines.join(' | ') || 'none'}`,
    );
    expect(days.stalled).toBe(true);
    // ended at the bound, not after the stall (before the bound: every stall waited out, 3 x STALL_S)
    expect(days.ms).toBeLessThan(STALL_S * 1000);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: '57014', cause: { code: '57014' } });
    expect(lines).toEqual([
      '[collector] day totals: 57014 the day totals of 2025-04-15: a statement ran past the ' +
        `build's statement timeout of ${TIMEOUT_MS} ms and was cancelled (canceling statement due to statement timeout); ` +
        'rolled back, nothing of it kept; counted again at the next run',
    ]);
    expect(await snapshot([...TOTALS_TABLES, ...FILTERED_TABLES])).toEqual(before);
    // the heartbeat sent while the count stalled: answered before the build ended, and kept
    expect(days.beatFirst).toBe(true);
    expect(await views()).toBe(viewsBefore + 1);

    // 2. the next run: the day counted again and kept; April's filtered totals stall, rolled back
    const filteredBefore = await snapshot(['stats_visits_by']);
    await stall('stats_visits_by');
    const month = await whileStalled(() => jobs.buildTotals());
    await unstall('stats_visits_by');
    console.log(`[totals-timeout postgres] the next run, April's filtered totals stalled: ended after ${month.ms} ms`);
    expect(month.stalled).toBe(true);
    expect(month.ms).toBeLessThan(STALL_S * 1000);
    expect(errors).toHaveLength(2);
    expect(lines[1]).toMatch(/^\[collector\] day totals: 57014 the filtered month totals of 2025-04: a statement ran past/);
    expect(month.beatFirst).toBe(true);
    expect(await views()).toBe(viewsBefore + 2);
    expect(await sql("SELECT day FROM stats_built WHERE day IN ('2025-04-15', '2025-04')")).toEqual([{ day: '2025-04-15' }]);
    expect(await sql('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 0 }]);
    // April's filtered rows as they were, unmarked (a read counts April from the rows until they are counted again)
    expect(await snapshot(['stats_visits_by'])).toEqual(filteredBefore);
    expect(await sql("SELECT month FROM stats_visits_by_built WHERE month = '2025-04'")).toEqual([]);

    // the bound was the transaction's only: the same pooled connection writes past it now
    await stall('admin_settings', (TIMEOUT_MS * 1.5) / 1000);
    await store.settings.set('pp_test_after_the_build', '1');
    await unstall('admin_settings');

    // 3. the collector's own build (the default bound) counts April again: its totals are the readers' side's count
    await h.buildTotals();
    expect(await sql("SELECT day FROM stats_built WHERE day = '2025-04'")).toEqual([{ day: '2025-04' }]);
    const { kept, counted } = await keptAndCounted(h, ZONE);
    expect(kept.filter((row) => row.startsWith(`["stats_visits","2025-04-15","page","${SITE}/kontakt.html"`))).toHaveLength(1);
    expect(kept).toEqual(counted);
    const [april] = await sql("SELECT start_at, end_at FROM stats_visits_by_built WHERE month = '2025-04'");
    const aprilDays = (await sql("SELECT day, start_at, end_at FROM stats_built WHERE day LIKE '2025-04-__' ORDER BY day")).map(
      (r) => ({ day: r.day as string, start: Number(r.start_at), end: Number(r.end_at) }),
    );
    expect(aprilDays).toHaveLength(30);
    expect(Number(april!.start_at)).toBe(aprilDays[0]!.start);
    const reader = postgresReader(h.databaseUrl!);
    const line = (r: Record<string, unknown>) =>
      JSON.stringify([r.dimension, r.value, r.metric, r.label, Number(r.n), Number(r.total)]);
    try {
      const filtered = (await sql(`SELECT * FROM stats_visits_by WHERE start_at = ${aprilDays[0]!.start}`)).map(line).sort();
      expect(filtered.some((r) => r.includes(`${SITE}/kontakt.html`))).toBe(true);
      expect(filtered).toEqual((await countFilteredMonth(reader, aprilDays)).map((r) => line({ ...r })).sort());
    } finally {
      await reader.close();
    }
    expect(errors).toHaveLength(2);
  }, 120_000);
});
