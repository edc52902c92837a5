import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { closeHarness, type Harness, startCollector } from '../support/collector';
import { longestHold } from '../support/hold';
import {
  beatSteadily,
  DAY_LABELS,
  expectTotalsKept,
  FROM,
  LABELS,
  MARCH,
  percentile,
  seedFirstView,
  SITE,
  STEP,
  VISITORS,
} from '../support/totals-stall';

// The day totals' builder on a site whose days hold very many distinct labels (pages with a query:
// the collector audit's 200,000 distinct pages). On SQLite the writer is the collector's own thread:
// a day's totals kept in ONE transaction (a DELETE and 200 rows per INSERT, every label of the day)
// and a month's totals made by ONE `INSERT ... SELECT ... GROUP BY` over its days' rows held that
// thread, and every heartbeat waited behind them. Here yesterday holds DAY_LABELS page views of
// distinct pages (each its own visit: a page, an entry and an exit label each) and every day of March
// its day totals of LABELS distinct pages; the builder counts yesterday and the month totals of March
// and April while visitors beat, and the collector's thread must never be held long.
// `PAGEPULSE_STALL_LABELS=50000` and `PAGEPULSE_STALL_DAY_LABELS` for larger sites (BENCHMARKS.md). SQLite only (the
// SQLite pass): on PostgreSQL the builder's statements run in the database server, not on this thread.
// What fails on the old code whatever the machine's load: a connection of the test's own looks at
// March's month totals between the thread's turns, and must once see them half written (the first
// day's label there, the last day's not yet): written a slice at a time, in transactions of their
// own. One statement, as before, is never seen half done. The times are bounded loosely (a gross
// regression): in the whole suite on two loaded cores (load 9) the thread was held 0.8 and 2 s once
// each by something else than the builder's slices (not found yet; the collector's own WAL
// checkpoint at 40 MB is suspected), against 72 to 99 ms alone.

/**
 * The bound on the times: the month's one statement held the thread 1.7 to 2.3 s here at this size
 * (4.2 s at 50,000 labels); a slice at a time holds it a few ms, 60 to 100 ms at most were seen on two
 * cores shared with other suites, and 0.8 and 2 s once each at load 9 by something else (above). A
 * guard against gross regressions only: the half-written month below is what tells the slices apart.
 */
const BOUND_MS = 3_000;
/** March's month totals: the first day's first label and the last day's, and whether the month is marked built. */
const MONTH_PROBE = `SELECT
  EXISTS (SELECT 1 FROM stats_visits WHERE day = '2025-03' AND metric = 'page' AND label = '${SITE}/?d=2025-03-01&q=1') AS first,
  EXISTS (SELECT 1 FROM stats_visits WHERE day = '2025-03' AND metric = 'page' AND label = '${SITE}/?d=2025-03-31&q=1') AS last`;

let h: Harness;
afterEach(() => closeHarness(h));

/** Statements that write, run on the SQLite file beside the collector (a connection of its own; WAL). */
function writeSqlite(statements: string): void {
  const db = new Database(h.dbPath);
  try {
    db.pragma('busy_timeout = 10000');
    db.exec(statements);
    // the seed's rows into the file now, not by the collector's first checkpoint during the measurement
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Seed the data: one page view on 1 March (the earliest, so March is a month of the builder), the
 * builder's run over it (every day from then built, in the collector's zone), then March's day totals
 * of LABELS pages each, and yesterday's page views; yesterday and both months are to be built again.
 */
async function seed(): Promise<void> {
  await seedFirstView(h);
  const series = (n: number) => `WITH RECURSIVE c (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) `;
  const page = (i: string) => `'${SITE}/?q=' || ${i}`;
  writeSqlite(
    [
      `DELETE FROM stats_visits WHERE day IN (${MARCH.map((d) => `'${d}'`).join(', ')})`,
      ...MARCH.map(
        (day) =>
          `${series(LABELS)}INSERT INTO stats_visits (day, metric, label, n, total)
           SELECT '${day}', 'page', '${SITE}/?d=${day}&q=' || i, 1 + i % 3, 1000 * (i % 7) FROM c`,
      ),
      `${series(DAY_LABELS)}INSERT INTO sessions (id, first_seen, last_seen, user_agent)
       SELECT printf('%064d', i), ${FROM} + i * ${STEP}, ${FROM} + i * ${STEP}, 'test' FROM c`,
      `${series(DAY_LABELS)}INSERT INTO visits (id, session_id, started_at, last_view_at, views, entry_page, exit_page, device, browser)
       SELECT 1 + i, printf('%064d', i), ${FROM} + i * ${STEP}, ${FROM} + i * ${STEP}, 1, ${page('i')}, ${page('i')}, 'desktop', 'Chrome'
       FROM c`,
      `${series(DAY_LABELS)}INSERT INTO page_views (visit_id, session_id, page, at, last_at)
       SELECT 1 + i, printf('%064d', i), ${page('i')}, ${FROM} + i * ${STEP}, ${FROM} + i * ${STEP} + 5000 FROM c`,
      // yesterday and both months are built again (as after a late write)
      "DELETE FROM stats_built WHERE day IN ('2025-04-30', '2025-03', '2025-04')",
      "DELETE FROM stats_visits_by_built WHERE month IN ('2025-03', '2025-04')",
    ].join(';\n'),
  );
}

/**
 * The longest time this thread was held while `work` ran (longestHold), March's month totals seen
 * half written at its turns, and the answer times of heartbeats due at a steady pace meanwhile.
 */
async function whileBuilding(work: () => Promise<void>): Promise<{ held: number; beats: number[]; halfSeen: number }> {
  const probe = new Database(h.dbPath, { readonly: true });
  const month = probe.prepare(MONTH_PROBE);
  let halfSeen = 0;
  // the visitors' page views first: after the seed's writes from another connection, the collector's
  // first write took about a second (not the builder's)
  const visitors = Array.from({ length: VISITORS }, () => h.visitor());
  for (const visitor of visitors) await visitor.beat(`${SITE}/`, true);
  const beating = beatSteadily(visitors);
  const { held } = await longestHold(work(), () => {
    const { first, last } = month.get() as { first: number; last: number };
    if (first && !last) halfSeen++;
  });
  await beating.stop();
  probe.close();
  return { held, beats: beating.beats, halfSeen };
}

describe('the day totals of days with many distinct labels', () => {
  it(`yesterday with ${DAY_LABELS} distinct pages, and March's month totals over 31 days of ${LABELS} pages each: the collector's thread is never held ${BOUND_MS} ms, nor a heartbeat`, async () => {
    h = await startCollector({ engine: 'sqlite', visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
    await seed();
    const started = performance.now();
    const { held, beats, halfSeen } = await whileBuilding(() => h.buildTotals());
    const took = performance.now() - started;
    const ms = (n: number) => Math.round(n);
    console.log(
      `[totals-stall] ${DAY_LABELS} pages yesterday, 31 days of ${LABELS}: build ${ms(took)} ms; thread held at most ${ms(held)} ms; ` +
        `March seen half written at ${halfSeen} turns; ${beats.length} heartbeats: p50 ${ms(percentile(beats, 50))}, p99 ${ms(percentile(beats, 99))}, max ${ms(Math.max(...beats))} ms`,
    );

    await expectTotalsKept(h);

    // the month written a slice at a time (one statement is never seen half done), the thread free meanwhile
    expect(halfSeen).toBeGreaterThan(0);
    expect(beats.length).toBeGreaterThan(0);
    expect(held).toBeLessThan(BOUND_MS);
    expect(Math.max(...beats)).toBeLessThan(BOUND_MS);
  }, 300_000);
});
