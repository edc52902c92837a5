// Heartbeats under the readers for several collectors or reader sets on ONE PostgreSQL data set
// (writing 1 M page views and building their totals takes five minutes; each run here 45 s):
//
//   npm run build && BENCH_RUNS=all,csv,dashboard,overlay npx tsx scripts/bench/collector-variants.ts
//   BENCH_RUNS=all@/tmp/old/main.js,all npx tsx scripts/bench/collector-variants.ts
//
// A run is `readers[@collector]`: the readers `all` or a `+`-joined set of dashboard, overlay, csv,
// and the compiled collector to start (dist/collector/main.js by default; an older build copied
// elsewhere compares two commits in one run). BENCH_VIEWS (1000000) the data set. Each run prints
// one JSON line: heartbeats at 500/s for 3 s (warm-up), 15 s alone and 15 s with the readers, the
// reads done and each process's CPU.
import { createCollector } from '../../collector/server/app';
import { createDatabase, startPostgres } from '../../test/support/postgres';
import { BENCH_SITE, writeDataset } from './collector-data';
import { ingestUnderReaders } from './collector-readers';
import { BENCH_PASSWORD, MAIN, signIn, start, stop } from './collector-run';

const runs = (process.env.BENCH_RUNS ?? 'all,all').split(',');
const views = Number(process.env.BENCH_VIEWS ?? 1_000_000);
const cluster = await startPostgres();
try {
  const db = await createDatabase(cluster.url);
  const started = performance.now();
  await writeDataset({ postgres: db }, views, Date.now());
  const builder = createCollector({ databaseUrl: db, adminPassword: BENCH_PASSWORD, sites: [BENCH_SITE] });
  await builder.buildTotals();
  await builder.close();
  console.log(`${views} page views written and counted in ${Math.round((performance.now() - started) / 1000)} s`);
  for (const run of runs) {
    const [readers, main = MAIN] = run.split('@') as [string, string | undefined];
    const { url, child } = await start({ PAGEPULSE_DATABASE_URL: db }, main);
    try {
      const cookie = await signIn(url);
      const only = readers === 'all' ? undefined : readers.replace(/\+/g, ',');
      const f = await ingestUnderReaders(url, cookie, child.pid!, { seconds: 15, rate: 500, connections: 32 }, only);
      console.log(
        JSON.stringify({ run, warmup: f.warmup, alone: f.alone, withReaders: f.withReaders, reads: f.reads, cpu: f.cpu }),
      );
    } finally {
      await stop(child);
    }
  }
} finally {
  cluster.stop();
}
