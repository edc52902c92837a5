// Heartbeats under the readers for several collectors or reader sets on ONE data set, on PostgreSQL
// (BENCH_ENGINE=sqlite: a SQLite file) (writing 1 M page views and building their totals takes four
// to five minutes; each run here 45 s):
//
//   npm run build && BENCH_RUNS=all,csv,dashboard,overlay npx tsx scripts/bench/collector-variants.ts
//   BENCH_RUNS=all@/tmp/old/main.js,all npx tsx scripts/bench/collector-variants.ts
//
// A run is `readers[@collector]`: the readers `all` or a `+`-joined set of dashboard, overlay, csv,
// and the compiled collector to start (dist/collector/main.js by default; an older build copied
// elsewhere compares two commits in one run). BENCH_VIEWS (1000000) the data set. Each run prints
// one JSON line: heartbeats at 500/s for 3 s (warm-up), 15 s alone and 15 s with the readers, the
// reads done and each process's CPU.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCollector } from '../../collector/server/app';
import { createDatabase, startPostgres, type PostgresCluster } from '../../test/support/postgres';
import { BENCH_SITE, writeDataset } from './collector-data';
import { ingestUnderReaders } from './collector-readers';
import { BENCH_PASSWORD, MAIN, signIn, start, stop } from './collector-run';

const runs = (process.env.BENCH_RUNS ?? 'all,all').split(',');
const views = Number(process.env.BENCH_VIEWS ?? 1_000_000);
const sqlite = process.env.BENCH_ENGINE === 'sqlite';
const cluster: PostgresCluster | null = sqlite ? null : await startPostgres();
const dir = sqlite ? mkdtempSync(join(tmpdir(), 'pagepulse-variants-')) : null;
try {
  const db = cluster ? await createDatabase(cluster.url) : join(dir!, 'bench.db');
  const started = performance.now();
  await writeDataset(cluster ? { postgres: db } : { sqlite: db }, views, Date.now());
  const builder = createCollector({
    ...(cluster ? { databaseUrl: db } : { dbPath: db }),
    adminPassword: BENCH_PASSWORD,
    sites: [BENCH_SITE],
  });
  await builder.buildTotals();
  await builder.close();
  console.log(`${views} page views written and counted in ${Math.round((performance.now() - started) / 1000)} s`);
  for (const run of runs) {
    const [readers, main = MAIN] = run.split('@') as [string, string | undefined];
    const { url, child } = await start(cluster ? { PAGEPULSE_DATABASE_URL: db } : { PAGEPULSE_DB: db }, main);
    try {
      const cookie = await signIn(url);
      const only = readers === 'all' ? undefined : readers.replace(/\+/g, ',');
      const f = await ingestUnderReaders(url, cookie, child.pid!, { seconds: 15, rate: 500 }, only);
      console.log(
        JSON.stringify({ run, warmup: f.warmup, alone: f.alone, withReaders: f.withReaders, reads: f.reads, cpu: f.cpu }),
      );
    } finally {
      await stop(child);
    }
  }
} finally {
  cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
