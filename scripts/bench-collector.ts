// `npm run bench:collector` (after `npm run build`): heartbeats per second and their p50/p99 latency
// for the compiled collector (dist/collector/main.js) on SQLite in one process and on PostgreSQL with 1,
// 2 and 4 processes (PAGEPULSE_WORKERS, node's cluster module on one port). Everything on 127.0.0.1:
// a throwaway PostgreSQL cluster (test/support/postgres.ts), autocannon with BENCH_CONNECTIONS
// connections (default 32) for BENCH_SECONDS (default 10) after a 3 s warm-up, per configuration.
// Heartbeats come from 2,000 visitor cookies over 20 pages, one in ten a page view.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_COOKIE } from '../collector/server/visitor/session';
import { createDatabase, startPostgres } from '../test/support/postgres';

const MAIN = 'dist/collector/main.js';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_SECONDS = 3;
const VISITORS = Array.from({ length: 2000 }, () => randomBytes(16).toString('hex'));
const PAGES = Array.from({ length: 20 }, (_, i) => `http://lichtwerk.test/seite-${i}`);

interface Run {
  name: string;
  env: Record<string, string>;
}

function start(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('node', [MAIN], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      PAGEPULSE_ADMIN_PASSWORD: 'bench-password-not-used-1234',
      // one client address sends everything: the per-address visitor limit would answer 429
      PAGEPULSE_VISITOR_RATE: '100000',
      PAGEPULSE_VISITOR_BURST: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /PagePulse collector and demo site: (http:\/\/[\d.:]+)\//.exec(output)?.[1];
      const workers = Number(env.PAGEPULSE_WORKERS ?? 1);
      const ready = workers > 1 ? output.includes('share the port') : Boolean(url);
      if (url && ready) resolve({ url, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`collector exited (${code}):\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function load(url: string, seconds: number): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: `${url}/index.php?option=com_jrealtimeanalytics&format=json`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          n++;
          const visitor = VISITORS[n % VISITORS.length]!;
          const body = new URLSearchParams({
            task: 'stream.display',
            nowpage: PAGES[n % PAGES.length]!,
            initialize: n % 10 === 0 ? 'true' : '',
            module_available: '1',
          }).toString();
          return {
            ...request,
            headers: {
              'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
              'x-requested-with': 'XMLHttpRequest',
              cookie: `${SESSION_COOKIE}=${visitor}`,
            },
            body,
          };
        },
      },
    ],
  });
}

if (!existsSync(MAIN)) {
  console.error(`${MAIN} is missing: run \`npm run build\` first`);
  process.exit(1);
}
const cluster = await startPostgres();
const dir = mkdtempSync(join(tmpdir(), 'pagepulse-bench-'));
const rows: string[] = [];
try {
  const runs: Run[] = [
    { name: 'SQLite, 1 process', env: { PAGEPULSE_DB: join(dir, 'bench.sqlite') } },
    { name: 'PostgreSQL, 1 process', env: { PAGEPULSE_DATABASE_URL: await createDatabase(cluster.url) } },
  ];
  for (const workers of [2, 4]) {
    const url = await createDatabase(cluster.url);
    runs.push({
      name: `PostgreSQL, ${workers} processes`,
      env: { PAGEPULSE_DATABASE_URL: url, PAGEPULSE_WORKERS: String(workers) },
    });
  }
  for (const run of runs) {
    const { url, child } = await start(run.env);
    try {
      await load(url, WARMUP_SECONDS);
      const result = await load(url, SECONDS);
      const ok = result['2xx'];
      const row = `| ${run.name} | ${Math.round(ok / SECONDS)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx + result.errors + result.timeouts} |`;
      console.log(row);
      rows.push(row);
    } finally {
      await stop(child);
    }
  }
} finally {
  cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `\n${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s warm-up\n`,
);
console.log('| collector | heartbeats/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|');
for (const row of rows) console.log(row);
