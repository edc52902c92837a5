// The filtered reads on PostgreSQL at 1 M page views (`npx tsx scripts/bench/filtered-postgres.ts`):
// a throwaway local cluster (test/support/postgres.ts), the collector bench's data (1 M page views
// over the year up to now), the day, month and filtered month totals built as the collector's run
// builds them (timed), then scripts/bench/filtered-reads.ts on it. BENCH_VIEWS for another size.
import { execFileSync } from 'node:child_process';
import { createJobs } from '../../collector/server/jobs';
import { openStore } from '../../collector/server/store';
import { describeAgent, pageAddress, sourceOf } from '../../collector/server/visitor';
import { createDatabase, startPostgres } from '../../test/support/postgres';
import { writeDataset } from './collector-data';

const views = Number(process.env.BENCH_VIEWS ?? 1_000_000);
const cluster = await startPostgres();
try {
  const url = await createDatabase(cluster.url);
  let started = performance.now();
  await writeDataset({ postgres: url }, views, Date.now());
  console.log(`${views} page views written in ${Math.round(performance.now() - started)} ms`);
  const store = await openStore(
    { postgres: url },
    {
      parsers: { agent: describeAgent, page: pageAddress, source: sourceOf },
      lifetimes: { sessionAbsoluteMs: 1, sessionIdleMs: 1, deviceMs: 1, attemptWindowMs: 1 },
    },
  );
  const buildMonth = store.stats.buildMonth;
  store.stats.buildMonth = async (...args) => {
    const at = performance.now();
    await buildMonth(...args);
    console.log(`month ${args[0].day}${args[3] ? ' with filtered totals' : ''}: ${Math.round(performance.now() - at)} ms`);
  };
  const jobs = createJobs({
    store,
    now: Date.now,
    timers: { every: () => () => {} },
    retain: async () => null,
    timeZone: async () => 'UTC',
    onError: (error) => console.error(error),
  });
  started = performance.now();
  await jobs.buildTotals();
  console.log(`totals built in ${Math.round(performance.now() - started)} ms`);
  await store.close();
  execFileSync('npx', ['tsx', 'scripts/bench/filtered-reads.ts'], { stdio: 'inherit', env: { ...process.env, BENCH_PG: url } });
} finally {
  cluster.stop();
}
