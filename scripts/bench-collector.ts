// `npm run bench:collector` (after `npm run build`): the compiled collector (dist/collector/main.js)
// in a process of its own, everything on 127.0.0.1, PostgreSQL a throwaway local cluster
// (test/support/postgres.ts).
//
// - throughput: heartbeats per second and their p50/p99 on SQLite (one process) and PostgreSQL with
//   1, 2 and 4 processes (PAGEPULSE_WORKERS), autocannon with BENCH_CONNECTIONS (32) connections for
//   BENCH_SECONDS (10) after a 3 s warm-up; 2,000 visitor cookies over 20 pages, one in ten a page view.
// - readers: on each engine a year of data written in bulk (1 M page views, 1 M clicks on the home
//   page, 1 M cookie-consent records; and again with 10,000), the day totals built, then each
//   dashboard answer for 30 days and 12 months timed, the consent CSV exported whole with the
//   collector's RSS watched, and heartbeats at BENCH_RATE (500) a second alone and while the
//   dashboard, the overlay and the CSV export read back to back, one request of each at a time
//   (scripts/bench/collector-readers.ts); these beats come as visitors' do, each at a time of its
//   own (Poisson arrivals), timed from when each was due (`arrivals` in scripts/bench/collector-run.ts).
//
// BENCH_PARTS=throughput,readers (both by default); BENCH_VIEWS (1000000) the large data set;
// BENCH_ENGINES=SQLite,PostgreSQL (both by default) for the readers.
// BENCH_NODE_ARGS: options for the collector's node process (a profile: `--cpu-prof --cpu-prof-dir=DIR`).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, startPostgres } from '../test/support/postgres';
import { MAIN, heartbeats, start, stop } from './bench/collector-run';
import { measureReaders, readerTables } from './bench/collector-readers';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const VIEWS = Number(process.env.BENCH_VIEWS ?? 1_000_000);
const PARTS = (process.env.BENCH_PARTS ?? 'throughput,readers').split(',');
const ENGINES = (process.env.BENCH_ENGINES ?? 'SQLite,PostgreSQL').split(',');
const WARMUP_SECONDS = 3;

if (!existsSync(MAIN)) {
  console.error(`${MAIN} is missing: run \`npm run build\` first`);
  process.exit(1);
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
console.log(
  `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}, load average ${load()} at the start`,
);
const cluster = await startPostgres();
const dir = mkdtempSync(join(tmpdir(), 'pagepulse-bench-'));
const out: string[] = [];
try {
  if (PARTS.includes('throughput')) {
    const runs: Array<{ name: string; env: Record<string, string> }> = [
      { name: 'SQLite, 1 process', env: { PAGEPULSE_DB: join(dir, 'bench.sqlite') } },
      { name: 'PostgreSQL, 1 process', env: { PAGEPULSE_DATABASE_URL: await createDatabase(cluster.url) } },
    ];
    for (const workers of [2, 4])
      runs.push({
        name: `PostgreSQL, ${workers} processes`,
        env: { PAGEPULSE_DATABASE_URL: await createDatabase(cluster.url), PAGEPULSE_WORKERS: String(workers) },
      });
    const rows: string[] = [];
    for (const run of runs) {
      const { url, child } = await start(run.env);
      try {
        await heartbeats(url, WARMUP_SECONDS, CONNECTIONS);
        const result = await heartbeats(url, SECONDS, CONNECTIONS);
        const row = `| ${run.name} | ${Math.round(result['2xx'] / SECONDS)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx + result.errors + result.timeouts} |`;
        console.log(row);
        rows.push(row);
      } finally {
        await stop(child);
      }
    }
    out.push(
      `## Heartbeats per second (${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s warm-up)`,
      '',
      '| collector | heartbeats/s | p50 ms | p99 ms | errors |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    );
  }
  if (PARTS.includes('readers')) {
    for (const [engine, views, full] of [
      ['SQLite', VIEWS, true],
      ['PostgreSQL', VIEWS, true],
      ['SQLite', 10_000, false],
      ['PostgreSQL', 10_000, false],
    ] as const) {
      if (!ENGINES.includes(engine)) continue;
      // BENCH_VIEWS=10000: the large data set is the small one, measured in full already
      if (!full && views === VIEWS) continue;
      const file = join(dir, `readers-${views}.sqlite`);
      const databaseUrl = engine === 'PostgreSQL' ? await createDatabase(cluster.url) : null;
      const target = databaseUrl ? { postgres: databaseUrl } : { sqlite: file };
      const env: Record<string, string> = databaseUrl ? { PAGEPULSE_DATABASE_URL: databaseUrl } : { PAGEPULSE_DB: file };
      console.log(`readers: ${engine}, ${views} page views ...`);
      const figures = await measureReaders(target, env, views, full ? { seconds: 15, rate: RATE } : null);
      const table = readerTables(engine, views, figures);
      console.log(table);
      out.push(table, '');
    }
  }
} finally {
  cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\nload average ${load()} at the end\n\n${out.join('\n')}`);
