// The filtered month totals' cost on a collector file (`BENCH_DB=<file> npx tsx scripts/bench/filtered-build.ts`,
// SQLite; or BENCH_PG=<url> for PostgreSQL): migrates it, then builds every missing total as the
// collector's ten-minute run does, and prints each month's time and the rows kept.
import { createJobs } from '../../collector/server/jobs';
import { openStore } from '../../collector/server/store';
import { describeAgent, pageAddress, sourceOf } from '../../collector/server/visitor';

const target = process.env.BENCH_PG ? { postgres: process.env.BENCH_PG } : { sqlite: process.env.BENCH_DB ?? '' };
if (!('postgres' in target) && !target.sqlite) throw new Error('BENCH_DB=<sqlite file> or BENCH_PG=<url> is required');
const store = await openStore(target, {
  parsers: { agent: describeAgent, page: pageAddress, source: sourceOf },
  lifetimes: { sessionAbsoluteMs: 1, sessionIdleMs: 1, deviceMs: 1, attemptWindowMs: 1 },
});
const buildMonth = store.stats.buildMonth;
store.stats.buildMonth = async (...args) => {
  const started = performance.now();
  await buildMonth(...args);
  console.log(`month ${args[0].day}${args[3] ? ' (filtered)' : ''}: ${Math.round(performance.now() - started)} ms`);
};
const jobs = createJobs({
  store,
  now: Date.now,
  timers: { every: () => () => {} },
  retain: async () => null,
  timeZone: async () => 'UTC',
  onError: (error) => console.error(error),
});
const started = performance.now();
await jobs.buildTotals();
console.log(`built in ${Math.round(performance.now() - started)} ms`);
await store.close();
