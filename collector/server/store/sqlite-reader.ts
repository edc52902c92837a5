import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Reads } from './sql';

/**
 * SQLite's readers (sqlite.ts's engine reads through them): read-only connections to the file on
 * threads of their own, below the collector's thread in priority, one statement at a time each,
 * the reads waiting in one queue before them.
 */

/** How much lower the reader threads' priority is than the collector's thread's (nice, up to 19). */
export const READER_NICE = 10;

/**
 * A SQLite reader thread: a read-only connection to the same file in a worker, one statement at a
 * time. Written as plain CommonJS text (the compiled collector is one ES module; a second entry file
 * would need a second build); the driver's path comes from the main thread.
 */
const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const READER_NICE = ${READER_NICE};
const Database = require(workerData.driver);
// below the collector's thread in priority (its nice value plus READER_NICE; on Linux a thread's
// own, set by its id): when the cores are busy the heartbeats go first, and two reader threads
// cannot starve them
try {
  const os = require('node:os');
  const thread = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  os.setPriority(thread, Math.min(19, os.getPriority(thread) + READER_NICE));
} catch {
  // no /proc/thread-self (not Linux): the collector's own priority
}
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -' + workerData.cacheKib);
// the checkpoints too (WAL pages copied back into the file): here, beside the readers, instead of
// in the commit of whichever heartbeat passes the WAL's threshold (one thread of the readers)
if (workerData.checkpoint) {
  const checkpointer = new Database(workerData.path, { fileMustExist: true });
  checkpointer.pragma('busy_timeout = 0');
  setInterval(() => {
    try {
      checkpointer.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // busy now: the next second
    }
  }, 1000);
}
const statements = new Map();
// the rest of a large answer, by read: sent a page at a time, each when the main thread asks for it
const rest = new Map();
const send = (id, rows, at) => {
  const end = at + workerData.page;
  if (end < rows.length) rest.set(id, { rows, at: end });
  else rest.delete(id);
  parentPort.postMessage({ id, rows: at === 0 && end >= rows.length ? rows : rows.slice(at, end), more: end < rows.length });
};
parentPort.on('message', ({ id, method, sql, params }) => {
  if (method === 'more') {
    const kept = rest.get(id);
    if (kept) send(id, kept.rows, kept.at);
    return;
  }
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    if (method === 'get') parentPort.postMessage({ id, rows: statement.get(...params) });
    else send(id, statement.all(...params), 0);
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

/**
 * Each reader connection's page cache, in KiB (better-sqlite3 builds SQLite with 16,000; SQLite's own
 * default is 2,000). The heartbeats write all the time and a WAL reader empties its cache when the
 * file changed since its last statement, so the cache serves one statement; but the memory it took
 * stays with the thread (its malloc arena): after a round of dashboard reads at 1 M page views the
 * two threads' arenas held 59 MB at 16,000 and 39 MB at 2,000 (BENCHMARKS.md, "Where the SQLite
 * collector's memory goes").
 */
export const READER_CACHE_KIB = 2_000;

/**
 * The reader threads' young generation, in MB (V8 sizes it by the heap otherwise): the consent CSV's
 * pages, a million records without a pause, grew a thread's from 1 to 16 MB, kept after the export;
 * a page's rows live for one message, so a small one only scavenges more often.
 */
export const READER_YOUNG_MB = 4;

/**
 * Rows of an answer sent from the reader thread at a time. A message's rows are copied into the main
 * thread's heap in one piece: the 60,000 rows of a month's filtered totals held it 150 to 220 ms
 * (the copy, then the garbage collector), and every heartbeat waited behind them. A page of 2,000
 * rows takes a few ms; the next is asked for after the requests that arrived meanwhile.
 */
export const READER_PAGE_ROWS = 2_000;

/**
 * One reader thread: a read-only connection on a worker thread (started at once, again on the next
 * read after a crash); `checkpoint`: it also checkpoints the WAL every second (PASSIVE: it never
 * waits for the writer, nor the writer for it). `running`: a statement was sent and has not answered
 * yet (the rest of a large answer's pages are sent on request, between other statements); `idle` is
 * called when it has; `waiting`: its reads not yet answered whole.
 */
function readerThread(path: string, pageRows: number, checkpoint: boolean, idle: () => void) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let worker: Worker | null = null;
  let next = 0;
  let running: number | null = null;
  const pending = new Map<number, { resolve: (rows: unknown) => void; reject: (error: Error) => void; pages: unknown[][] }>();
  const fail = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = null;
    running = null;
    idle();
  };
  const start = (): Worker => {
    const started = new Worker(READER_SOURCE, {
      eval: true,
      workerData: { driver, path, page: pageRows, checkpoint, cacheKib: READER_CACHE_KIB },
      resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_MB },
    });
    started.on('message', ({ id, rows, more, error }: ReaderAnswer) => {
      const waiting = pending.get(id);
      if (!waiting) return;
      const answered = running === id;
      if (answered) running = null;
      if (more) {
        waiting.pages.push(rows as unknown[]);
        // the next page after the requests that came in meanwhile (unless the reader was replaced)
        setImmediate(() => {
          if (worker === started && pending.has(id)) started.postMessage({ id, method: 'more' });
        });
      } else {
        pending.delete(id);
        if (pending.size === 0) started.unref();
        if (error) waiting.reject(Object.assign(new Error(error.message), { code: error.code }));
        else waiting.resolve(waiting.pages.length === 0 ? rows : [...waiting.pages, rows as unknown[]].flat());
      }
      if (answered) idle();
    });
    started.on('error', (error) => fail(error));
    started.on('exit', () => {
      if (worker === started) fail(new Error('the SQLite reader thread stopped'));
    });
    // kept up only while a read waits for it (then the process does too): an idle reader does
    // not keep a collector up that is otherwise done
    started.unref();
    return started;
  };
  const ask = (method: 'all' | 'get', sql: string, params: readonly unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      worker ??= start();
      const id = next++;
      pending.set(id, { resolve, reject, pages: [] });
      running = id;
      worker.ref();
      worker.postMessage({ id, method, sql, params });
    });
  worker = start();
  return {
    ask,
    running: () => running !== null,
    waiting: () => pending.size,
    async close() {
      const stopping = worker;
      fail(new Error('the store is closed'));
      await stopping?.terminate();
    },
  };
}

/**
 * How many statements the SQLite readers run at once: two threads. A long read (a filtered year:
 * countDays) is counted in parts on both, and a read asked while one thread is busy (a month's
 * filtered totals, the consent export's page) goes to the other instead of waiting behind it.
 */
export const READER_THREADS = 2;

/**
 * Reads of a SQLite file on `threads` reader threads (readerThread; the first checkpoints the WAL).
 * The reads wait in one queue, in the order asked, and each goes to the first thread that is not
 * running a statement (not to a thread's own queue: a statement's cost is not known beforehand, and
 * a count of waiting reads sent a year's second half behind its first). A large answer comes in
 * pages of `pageRows` (READER_PAGE_ROWS).
 */
export function sqliteReader(
  path: string,
  pageRows = READER_PAGE_ROWS,
  threads = READER_THREADS,
): Reads & { close(): Promise<void> } {
  const queue: Array<{
    method: 'all' | 'get';
    sql: string;
    params: readonly unknown[];
    resolve: (rows: unknown) => void;
    reject: (error: Error) => void;
  }> = [];
  let closed = false;
  // a free thread without the rest of a large answer to send first (its pages wait behind a statement)
  const pump = () => {
    for (const thread of [...pool].sort((a, b) => a.waiting() - b.waiting())) {
      const job = closed || thread.running() ? undefined : queue.shift();
      if (job) thread.ask(job.method, job.sql, job.params).then(job.resolve, job.reject);
    }
  };
  const pool = Array.from({ length: threads }, (_, k) => readerThread(path, pageRows, k === 0, () => pump()));
  const ask = (method: 'all' | 'get', sql: string, params: readonly unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(new Error('the store is closed'));
      queue.push({ method, sql, params, resolve, reject });
      pump();
    });
  return {
    parallel: threads,
    all: <T>(sql: string, params: readonly unknown[] = []) => ask('all', sql, params) as Promise<T[]>,
    get: <T>(sql: string, params: readonly unknown[] = []) => ask('get', sql, params) as Promise<T | undefined>,
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the store is closed'));
      await Promise.all(pool.map((thread) => thread.close()));
    },
  };
}

/** A message of the reader thread: a read's rows (`more`: a page, the rest to be asked for) or its error. */
interface ReaderAnswer {
  id: number;
  rows?: unknown;
  more?: boolean;
  error?: { message: string; code?: string };
}
