// The filtered reads on PostgreSQL at 1 M page views (`npx tsx scripts/bench/filtered-postgres.ts`):
// a throwaway local cluster (test/support/postgres.ts), the collector bench's data (1 M page views
// over the year up to now), the day, month and filtered month totals built as the collector's run
// builds them (scripts/bench/filtered-build.ts, timed per month), then scripts/bench/filtered-reads.ts
// on it. BENCH_VIEWS for another size.
import { execFileSync } from 'node:child_process';
import { createDatabase, startPostgres } from '../../test/support/postgres';
import { writeDataset } from './collector-data';

const views = Number(process.env.BENCH_VIEWS ?? 1_000_000);
const cluster = await startPostgres();
try {
  const url = await createDatabase(cluster.url);
  const started = performance.now();
  await writeDataset({ postgres: url }, views, Date.now());
  console.log(`${views} page views written in ${Math.round(performance.now() - started)} ms`);
  const env = { ...process.env, BENCH_PG: url };
  execFileSync('npx', ['tsx', 'scripts/bench/filtered-build.ts'], { stdio: 'inherit', env });
  execFileSync('npx', ['tsx', 'scripts/bench/filtered-reads.ts'], { stdio: 'inherit', env });
} finally {
  cluster.stop();
}
