// Filtered dashboard reads on a SQLite file of the collector (e.g. the one `npm run bench:collector`
// writes: 1 M page views over a year): `BENCH_DB=<file> npx tsx scripts/bench/filtered-reads.ts`;
// on PostgreSQL `BENCH_PG=<url>` (a database with the bench's data and its totals built:
// scripts/bench/filtered-postgres.ts makes one). Times the overview's read (period and the previous
// one, totals and chart) with each filter, five times each, on the readers' side as the collector
// reads; prints cold, median and slowest in ms. SQLite reads on the collector's reader threads
// (READER_THREADS); `BENCH_READERS=1` on one, as before they were two.
import { createDashboard } from '../../collector/server/admin/dashboard';
import { periodOf } from '../../collector/server/admin/period';
import type { ClicksStore, ConsentsStore, VisitFilter, VisitsStore } from '../../collector/server/store';
import { postgresEngine } from '../../collector/server/store/postgres';
import { READER_PAGE_ROWS, READER_THREADS, sqliteReader } from '../../collector/server/store/sqlite-reader';
import { visitTotals } from '../../collector/server/store/visits-totals';
import { HOME } from './collector-data';
import { median } from './util';

const path = process.env.BENCH_DB;
const pg = process.env.BENCH_PG;
if (!path && !pg) throw new Error('BENCH_DB=<sqlite file> or BENCH_PG=<url> is required');
const engine = pg ? postgresEngine(pg) : null;
const reads = engine ? engine.reads : sqliteReader(path!, READER_PAGE_ROWS, Number(process.env.BENCH_READERS ?? READER_THREADS));
const dashboard = createDashboard(
  visitTotals(reads, pg ? 'postgres' : 'sqlite') as unknown as VisitsStore,
  {} as ClicksStore,
  {} as ConsentsStore,
);
const filters: Array<[string, VisitFilter]> = [
  ['none', []],
  ['browser Firefox', [['browser', 'Firefox']]],
  ['device mobile', [['device', 'mobile']]],
  ['page (home)', [['page', HOME]]],
  [
    'page (home) + browser Safari',
    [
      ['page', HOME],
      ['browser', 'Safari'],
    ],
  ],
  [
    'page (home) + country DE',
    [
      ['page', HOME],
      ['country', 'DE'],
    ],
  ],
  [
    'device mobile + browser Chrome',
    [
      ['device', 'mobile'],
      ['browser', 'Chrome'],
    ],
  ],
];
console.log('| period | filter | cold ms | median ms | max ms | page views counted |');
console.log('|---|---|---|---|---|---|');
for (const name of ['30d', '12m']) {
  const period = periodOf(new URLSearchParams({ period: name }), Date.now(), 'UTC');
  for (const [what, filter] of filters) {
    const times: number[] = [];
    let views = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      views = (await dashboard.traffic(period, filter)).summary.views.current;
      times.push(performance.now() - started);
    }
    console.log(
      `| ${name} | ${what} | ${Math.round(times[0]!)} | ${Math.round(median(times))} | ${Math.round(Math.max(...times))} | ${views} |`,
    );
  }
}
await (engine ? engine.close() : (reads as ReturnType<typeof sqliteReader>).close());
