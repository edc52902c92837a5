// The collector's readers against a year of data (scripts/bench-collector.ts): how long each
// dashboard answer takes, what the consent CSV costs in memory, and what the readers do to the
// heartbeats answered meanwhile. The collector runs compiled, in a process of its own.
import { createCollector } from '../../collector/server/app';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BENCH_SITE, writeDataset, type Target, type Written } from './collector-data';
import { dashboardReads, timedGet } from './collector-reader-urls';
import { arrivals, BENCH_PASSWORD, cpuTimes, rssMb, signIn, start, stop, type Arrivals } from './collector-run';
import { median } from './util';

/** Heartbeats right after the collector started, measured apart (the throughput bench's warm-up). */
const WARMUP_SECONDS = 3;

/** One answer measured: its first (cold) time and the median and slowest of `times`. */
export interface Answer {
  what: string;
  cold: number;
  median: number;
  max: number;
}

/** Heartbeat latencies of one run (Poisson arrivals, from each beat's planned time). */
export type Ingest = Arrivals;

export interface ReaderFigures {
  written: Written;
  /** Writing the rows, and building the day totals of the year (the collector's own builder). */
  writeMs: number;
  buildMs: number;
  answers: Answer[];
  csv?: { ms: number; lines: number; mb: number; rssBeforeMb: number; rssPeakMb: number };
  ingest?: IngestFigures;
}

/** Heartbeats alone and under the readers, the reads done meanwhile, and each process's CPU share. */
export interface IngestFigures {
  rate: number;
  seconds: number;
  warmup: Ingest;
  alone: Ingest;
  withReaders: Ingest;
  reads: Record<string, number>;
  /** Per cent of one core used during each phase: the collector, PostgreSQL, the load generator, the readers. */
  cpu: { alone: Record<string, number>; withReaders: Record<string, number> };
}

/** The consent CSV whole, its time and size, and the collector's memory before and at its peak. */
async function csvExport(url: string, cookie: string, pid: number) {
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  const poll = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(pid))), 25);
  const started = performance.now();
  const res = await fetch(`${url}/admin/consents.csv`, { headers: { cookie } });
  let lines = 0;
  let bytes = 0;
  const reader = res.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    bytes += part.value.length;
    for (const byte of part.value) if (byte === 10) lines++;
  }
  clearInterval(poll);
  return { ms: performance.now() - started, lines, mb: bytes / 1e6, rssBeforeMb, rssPeakMb };
}

/** The readers in a process of their own (collector-reader-loops.ts), reading once it has started. */
async function startReaders(url: string, cookie: string, only?: string) {
  const script = fileURLToPath(new URL('./collector-reader-loops.ts', import.meta.url));
  const args = ['--import', 'tsx', script, url, cookie, ...(only ? [only] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  const ended = new Promise<Record<string, number>>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output.split('\n')[1]!) as Record<string, number>)
        : reject(new Error(`readers exited (${code})`)),
    ),
  );
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve();
    }),
  );
  return { pid: child.pid!, stop: () => (child.stdin.end(), ended) };
}

/** Per cent of one core each process used between two `cpuTimes` readings `ms` apart. */
const shares = (before: Record<string, number>, after: Record<string, number>, ms: number) =>
  Object.fromEntries(Object.keys(after).map((k) => [k, Math.round(((after[k]! - (before[k] ?? 0)) / ms) * 100)]));

/**
 * Heartbeats at `full.rate` for 3 s right after the start (apart: the pool's connections are
 * opened, each new server process reads its catalogs, 2,000 visitor sessions are new, node
 * compiles the path), then for `full.seconds` alone, then while the readers read back to back in a
 * process of their own (`only`: some of them, `csv,overlay`).
 */
export async function ingestUnderReaders(
  url: string,
  cookie: string,
  collector: number,
  full: { seconds: number; rate: number },
  only?: string,
): Promise<IngestFigures> {
  const pids = { collector, load: process.pid };
  const warmup = await arrivals(url, WARMUP_SECONDS, full.rate);
  let at = performance.now();
  let before = cpuTimes(pids);
  const alone = await arrivals(url, full.seconds, full.rate);
  const cpuAlone = shares(before, cpuTimes(pids), performance.now() - at);
  const readers = await startReaders(url, cookie, only);
  const withPids = { ...pids, readers: readers.pid };
  at = performance.now();
  before = cpuTimes(withPids);
  const withReaders = await arrivals(url, full.seconds, full.rate);
  const cpuWith = shares(before, cpuTimes(withPids), performance.now() - at);
  const reads = await readers.stop();
  return {
    rate: full.rate,
    seconds: full.seconds,
    warmup,
    alone,
    withReaders,
    reads,
    cpu: { alone: cpuAlone, withReaders: cpuWith },
  };
}

/**
 * Write `views` page views (and as many clicks and consent records) into `target`, build the day
 * totals, start the collector on it and measure. `full`: the CSV and heartbeats under readers too.
 */
export async function measureReaders(
  target: Target,
  env: Record<string, string>,
  views: number,
  full: { seconds: number; rate: number } | null,
): Promise<ReaderFigures> {
  const now = Date.now();
  let at = performance.now();
  const written = await writeDataset(target, views, now);
  const writeMs = performance.now() - at;
  at = performance.now();
  const builder = createCollector({
    ...('sqlite' in target ? { dbPath: target.sqlite } : { databaseUrl: target.postgres }),
    adminPassword: BENCH_PASSWORD,
    sites: [BENCH_SITE],
  });
  await builder.buildTotals();
  await builder.close();
  const buildMs = performance.now() - at;

  const { url, child } = await start(env);
  const figures: ReaderFigures = { written, writeMs, buildMs, answers: [] };
  try {
    const cookie = await signIn(url);
    for (const [what, address] of dashboardReads(url)) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) times.push(await timedGet(address, address.includes('/admin/') ? cookie : null));
      figures.answers.push({ what, cold: times[0]!, median: median(times), max: Math.max(...times) });
    }
    if (!full) return figures;
    figures.csv = await csvExport(url, cookie, child.pid!);

    figures.ingest = await ingestUnderReaders(url, cookie, child.pid!, full);
    return figures;
  } finally {
    await stop(child);
  }
}

const cpuLine = (shares: Record<string, number>) =>
  Object.entries(shares)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The figures as markdown tables. */
export function readerTables(name: string, views: number, f: ReaderFigures): string {
  const n = (x: number) => Math.round(x).toLocaleString('en');
  const lines = [
    `### ${name}, ${n(views)} page views`,
    '',
    `Rows written in ${(f.writeMs / 1000).toFixed(1)} s: ${Object.entries(f.written)
      .map(([t, c]) => `${t} ${n(c)}`)
      .join(', ')}. Day totals of the year built in ${(f.buildMs / 1000).toFixed(1)} s (the collector's own builder).`,
    '',
    '| answer | first ms | median of 5 ms | slowest ms |',
    '|---|---|---|---|',
    ...f.answers.map((a) => `| ${a.what} | ${n(a.cold)} | ${n(a.median)} | ${n(a.max)} |`),
  ];
  if (f.csv)
    lines.push(
      '',
      `Consent CSV, all ${n(f.csv.lines - 1)} records (${f.csv.mb.toFixed(0)} MB): ${(f.csv.ms / 1000).toFixed(1)} s; the collector's RSS ${n(f.csv.rssBeforeMb)} MB before, at most ${n(f.csv.rssPeakMb)} MB during it.`,
    );
  if (f.ingest) {
    const row = (what: string, i: Ingest) =>
      `| ${what} | ${i.rps} | ${i.p50} | ${i.p99} | ${i.max} | ${i.errors} | ${i.sentLateP99} |`;
    lines.push(
      '',
      `Heartbeats at ${f.ingest.rate}/s: for ${WARMUP_SECONDS} s right after the collector started (warm-up), then for ${f.ingest.seconds} s alone and while the readers (a process of their own) read back to back: the dashboard (each answer in turn), the overlay and the CSV export (reads done meanwhile: ${Object.entries(
        f.ingest.reads,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}):`,
      '',
      '| heartbeats | per s | p50 ms | p99 ms | max ms | errors | sent late, p99 ms |',
      '|---|---|---|---|---|---|---|',
      row(`first ${WARMUP_SECONDS} s (warm-up)`, f.ingest.warmup),
      row('alone', f.ingest.alone),
      row('with the readers', f.ingest.withReaders),
      '',
      `CPU, per cent of one core (two cores in all): alone ${cpuLine(f.ingest.cpu.alone)}; with the readers ${cpuLine(f.ingest.cpu.withReaders)}.`,
    );
  }
  return lines.join('\n');
}
