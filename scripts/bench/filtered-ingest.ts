// Heartbeats while the filtered month totals are counted (`BENCH_DB=<file> npx tsx
// scripts/bench/filtered-ingest.ts`, a SQLite file of the collector bench with its totals built;
// the file is changed: its filtered months are counted again). The collector in this process, as it
// runs: the builder's counts on the readers' thread, its writes in short transactions on the one
// thread that answers heartbeats. Prints the heartbeats' latency during the count and after it, and
// how long the thread was held (event-loop delay: what every request waits behind, the bench's own
// client in this process included).
import Database from 'better-sqlite3';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createCollector } from '../../collector/server/app';
import { BENCH_SITE } from './collector-data';
import { arrivals, BENCH_PASSWORD, type Arrivals } from './collector-run';

const path = process.env.BENCH_DB;
if (!path) throw new Error('BENCH_DB=<sqlite file> is required');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const side = new Database(path);
const months = side.prepare('SELECT COUNT(*) AS n FROM stats_visits_by_built').get() as { n: number };
side.exec('DELETE FROM stats_visits_by_built');
side.close();
const collector = createCollector({
  dbPath: path,
  adminPassword: BENCH_PASSWORD,
  sites: [BENCH_SITE],
  visitorRate: { burst: 1_000_000, perSecond: 100_000 },
  timers: { every: () => () => {} },
});
const { url } = await collector.listen(0, '127.0.0.1');
const started = performance.now();
let built = 0;
const building = collector.buildTotals().then(() => (built = performance.now() - started));
// heartbeats as visitors send them (Poisson arrivals at 500/s, each timed from when it was due)
const show = (what: string, r: Arrivals) =>
  console.log(`${what}: ${r.rps}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, errors ${r.errors}`);
const delay = monitorEventLoopDelay({ resolution: 5 });
const held = (what: string) => {
  console.log(
    `${what}: the thread held p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms`,
  );
  delay.reset();
};
delay.enable();
show(`during the count of ${months.n} months' filtered totals (first ${SECONDS} s)`, await arrivals(url, SECONDS, 500));
held('during the count, with heartbeats');
await building;
held('the rest of the count, no heartbeats');
console.log(`counted in ${Math.round(built / 1000)} s`);
show('after it (10 s)', await arrivals(url, 10, 500));
held('after it');
await collector.close();
