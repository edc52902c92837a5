import cluster, { type Worker } from 'node:cluster';

/**
 * The primary of PAGEPULSE_WORKERS=N (node's cluster module): it forks N collector processes on one
 * port and keeps N running. A worker that dies (a crash, kill -9, out of memory) is replaced, at
 * once the first time and after a growing wait when workers keep dying (RESTART_DELAYS), as node's
 * cluster documentation suggests; the site meanwhile answers from the others. Only a signal stops
 * the primary (and its workers, SIGTERM with a grace period).
 */

/** How long the primary gives the workers to close before it exits anyway. */
const SHUTDOWN_GRACE_MS = 3000;
/** Deaths within this long count as "keeps dying". */
const CRASH_WINDOW_MS = 60_000;

/**
 * The wait before replacing a worker, by how many died within the last minute (this one
 * included): none for the first, then 1, 2, 4... s up to 30 s.
 */
export function restartDelayMs(recentDeaths: number): number {
  return recentDeaths <= 1 ? 0 : Math.min(1000 * 2 ** (recentDeaths - 2), 30_000);
}

/**
 * Fork `count` workers, one after another (the first applies the migrations and prints a generated
 * password), each listening before the next (a replacement in the place of one that exited first), and keep them.
 */
export async function superviseWorkers(
  count: number,
  log: (line: string) => void = console.log,
  warn: (line: string) => void = console.error,
): Promise<void> {
  let stopping = false;
  const deaths: number[] = [];
  /** The start's wait for a worker that has not listened yet, by worker id: its replacement settles it. */
  const starting = new Map<number, (worker: Worker) => void>();
  /**
   * Fork a worker; settles when it listens, or, when it exits first (PostgreSQL not reachable yet at
   * boot, say), when the worker that replaces it does: the start waited for it forever and the
   * collector kept fewer than N workers.
   */
  const fork = () =>
    new Promise<Worker>((resolve) => {
      const worker = cluster.fork();
      starting.set(worker.id, resolve);
      worker.once('listening', () => {
        starting.delete(worker.id);
        resolve(worker);
      });
    });
  const stopAll = (code: number) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(code), SHUTDOWN_GRACE_MS).unref();
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const waiting = starting.get(worker.id);
    starting.delete(worker.id);
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && now - deaths[0]! > CRASH_WINDOW_MS) deaths.shift();
    const delay = restartDelayMs(deaths.length);
    warn(
      `pagepulse collector: worker ${worker.process.pid} exited (${signal ? `signal ${signal}` : `code ${code}`}): replacing it${
        delay ? ` in ${delay / 1000} s (${deaths.length} exits in the last minute)` : ''
      }`,
    );
    // not unref'd: with every worker gone, this timer is what keeps the primary up
    setTimeout(() => {
      if (stopping) return;
      fork().then(
        (next) => {
          log(`pagepulse collector: worker ${next.process.pid} took its place`);
          waiting?.(next);
        },
        (error: unknown) => warn(`pagepulse collector: could not start a worker: ${String(error)}`),
      );
    }, delay);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopAll(0));
  for (let i = 0; i < count; i++) await fork();
  log(`${count} collector processes (PAGEPULSE_WORKERS) share the port`);
}
