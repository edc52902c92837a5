// The compiled collector as the collector bench runs it (scripts/bench-collector.ts): a child
// process of `node dist/collector/main.js`, and the heartbeats autocannon sends it.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { SESSION_COOKIE } from '../../collector/server/visitor/session';
import { BENCH_SITE } from './collector-data';

export const MAIN = 'dist/collector/main.js';
export const BENCH_PASSWORD = 'bench-password-not-used-1234';
const VISITORS = Array.from({ length: 2000 }, () => randomBytes(16).toString('hex'));
const PAGES = Array.from({ length: 20 }, (_, i) => `${BENCH_SITE}/seite-${i}`);

/** A running collector: its address and process. */
export interface Running {
  url: string;
  child: ChildProcess;
}

/** Start the compiled collector (`main`) with `env` (its database among it) and wait until it listens. */
export function start(env: Record<string, string>, main = MAIN): Promise<Running> {
  // BENCH_NODE_ARGS: options for the collector's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS refuses)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn('node', [...nodeArgs, main], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      PAGEPULSE_ADMIN_PASSWORD: BENCH_PASSWORD,
      PAGEPULSE_SITES: BENCH_SITE,
      // one client address sends everything: the per-client visitor limit would answer 429
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

/** Stop it (SIGTERM) and wait for the exit. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The n-th heartbeat's body and headers: 2,000 visitor cookies over 20 pages, one in ten a page view. */
function beat(n: number): { body: string; headers: Record<string, string> } {
  const body = new URLSearchParams({
    task: 'stream.display',
    nowpage: PAGES[n % PAGES.length]!,
    initialize: n % 10 === 0 ? 'true' : '',
    module_available: '1',
  }).toString();
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      'x-requested-with': 'XMLHttpRequest',
      cookie: `${SESSION_COOKIE}=${VISITORS[n % VISITORS.length]!}`,
    },
  };
}
const ENDPOINT = '/index.php?option=com_jrealtimeanalytics&format=json';

/**
 * Heartbeats for `seconds` over `connections` connections, as fast as they are answered, or `rate`
 * a second in all (the throughput bench). With a rate, autocannon sends each second's share at the
 * second's start, as fast as the connections are answered: a burst that waits on itself, not
 * visitors' beats (see `arrivals`).
 */
export async function heartbeats(url: string, seconds: number, connections: number, rate?: number): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: `${url}${ENDPOINT}`,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, ...beat(++n) }) }],
  });
}

/** Latencies of `arrivals`, in ms. */
export interface Arrivals {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  /** p99 of how late the beats were sent (the load generator's own delay, inside p50 to max). */
  sentLateP99: number;
}

/**
 * Heartbeats as visitors send them: `rate` a second on average, each at a time of its own (Poisson
 * arrivals: every visitor's timer runs apart from the others'), for `seconds`, over as many
 * keep-alive connections as are busy. Each latency counts from the beat's planned time, so a beat
 * that could not even be sent while the collector stood still counts that wait too.
 */
export async function arrivals(url: string, seconds: number, rate: number): Promise<Arrivals> {
  const target = new URL(`${url}${ENDPOINT}`);
  // a free socket is closed after 4 s, before the collector's 5 (node's keepAliveTimeout): a beat sent
  // on a socket the collector was closing failed with ECONNRESET (a browser sends it again); the
  // sockets opened in a burst sat idle that long and the bench counted those as errors
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });
  const latencies: number[] = [];
  let errors = 0;
  const send = (n: number, planned: number) =>
    new Promise<void>((done) => {
      const { body, headers } = beat(n);
      const request = http.request(
        { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: 'POST', agent, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - planned);
            else errors++;
            done();
          });
        },
      );
      request.on('error', () => (errors++, done()));
      request.end(body);
    });
  const started = performance.now();
  const end = started + seconds * 1000;
  const sent: Array<Promise<void>> = [];
  // how late each beat left this process: its own part of the latency (a busy machine delays its timers)
  const late: number[] = [];
  let next = started;
  await new Promise<void>((finished) => {
    const tick = () => {
      while (next <= performance.now() && next < end) {
        late.push(performance.now() - next);
        sent.push(send(sent.length + 1, next));
        next += -Math.log(1 - Math.random()) * (1000 / rate);
      }
      if (next < end) setTimeout(tick, 1);
      else finished();
    };
    tick();
  });
  await Promise.all(sent);
  agent.destroy();
  const quantile = (values: number[], q: number) =>
    Math.round(values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN);
  return {
    rps: Math.round(latencies.length / seconds),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: quantile(latencies, 1),
    errors,
    sentLateP99: quantile(late, 0.99),
  };
}

/** A process's resident memory now, in MB (Linux). */
export function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** Sign in to a running collector: the admin session's cookie. */
export async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: BENCH_PASSWORD }).toString(),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in answered ${res.status}`);
  return cookie;
}

/** A process's CPU time so far (user and system), in ms (Linux, 100 ticks a second). */
function cpuOfPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after the name: state is field 3, utime 14 and stime 15
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The CPU time so far of each named process, and of all PostgreSQL server processes together. */
export function cpuTimes(pids: Record<string, number>): Record<string, number> {
  const times: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) times[name] = cpuOfPid(pid);
  let postgres = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') postgres += cpuOfPid(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  times.postgres = postgres;
  return times;
}
