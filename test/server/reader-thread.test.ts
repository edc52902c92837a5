import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READER_CACHE_KIB, READER_NICE, READER_PAGE_ROWS, sqliteReader } from '../../collector/server/store/sqlite-reader';
import { longestHold } from '../support/hold';

// The SQLite reader threads (collector/server/store/sqlite-reader.ts): a large answer reaches the collector's
// thread a page at a time, so that what arrives meanwhile (heartbeats, other reads) is not held
// behind it. One message of a month's filtered totals (60,000 rows) held that thread 150 to 220 ms.
// A read goes to an idle thread of the two, so a short one does not wait behind a long statement.

/** Rows like a month's filtered totals: dimension, value, metric, label, n, total. */
const ROWS = 200_000;
const LIKE_FILTERED = `WITH RECURSIVE c (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?)
  SELECT 'page' AS dimension, 'http://lichtwerk.test/seite-' || (i % 300) AS value, 'page' AS metric,
    'http://lichtwerk.test/galerie-' || (i % 293) AS label, i AS n, i * 7 AS total FROM c`;
type Row = { dimension: string; value: string; metric: string; label: string; n: number; total: number };

let dir: string;
let path: string;
let reader: ReturnType<typeof sqliteReader>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagepulse-reader-'));
  path = join(dir, 'collector.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x INTEGER)');
  db.close();
  reader = sqliteReader(path);
});
afterEach(async () => {
  await reader.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite reader threads', () => {
  it('an answer of 200,000 rows comes a page at a time: this thread is never held 100 ms by it, the rows whole and in order', async () => {
    await reader.all('SELECT 1'); // the thread up, its driver loaded
    const { result: rows, held } = await longestHold(reader.all<Row>(LIKE_FILTERED, [ROWS]));
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]).toEqual({
      dimension: 'page',
      value: 'http://lichtwerk.test/seite-1',
      metric: 'page',
      label: 'http://lichtwerk.test/galerie-1',
      n: 1,
      total: 7,
    });
    expect(rows.every((row, i) => row.n === i + 1)).toBe(true);
    expect(rows.at(-1)!.total).toBe(ROWS * 7);
    // in one message: 560 to 620 ms here; a page at a time 30 to 36 (the young generation's
    // collections of the rows kept so far)
    expect(held).toBeLessThan(100);
  });

  it('a read asked for while a large answer comes is answered between its pages, not after the last (one thread)', async () => {
    const one = sqliteReader(path, READER_PAGE_ROWS, 1);
    const order: string[] = [];
    const large = one.all<Row>(LIKE_FILTERED, [ROWS]).then((rows) => order.push(`large ${rows.length}`));
    const small = one.get<{ n: number }>('SELECT 42 AS n').then((row) => order.push(`small ${row!.n}`));
    await Promise.all([large, small]);
    expect(order).toEqual(['small 42', `large ${ROWS}`]);
    await one.close();
  });

  it('a read asked while a long statement runs is answered by the other reader thread, before the long one ends', async () => {
    // both threads up (the second read goes to the idle one)
    await Promise.all([reader.get('SELECT 1'), reader.get('SELECT 1')]);
    const order: string[] = [];
    const long = reader
      .get<{ n: number }>(
        'WITH RECURSIVE c (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?) SELECT COUNT(*) AS n FROM c',
        [3_000_000],
      )
      .then((row) => order.push(`long ${row!.n}`));
    const small = reader.get<{ n: number }>('SELECT 42 AS n').then((row) => order.push(`small ${row!.n}`));
    await Promise.all([long, small]);
    // with one thread the small read waited for the count (about half a second here)
    expect(order).toEqual(['small 42', 'long 3000000']);
    expect(reader.parallel).toBe(2);
  });

  it('both threads run below the collector’s thread in priority (nice 10 more), so heartbeats go first on busy cores', async () => {
    await Promise.all([reader.get('SELECT 1'), reader.get('SELECT 1')]);
    // this process's threads and their nice values (/proc/<pid>/task/<tid>/stat, the 19th field)
    const nice = (tid: string) => {
      const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const own = nice(String(process.pid));
    const threads = readdirSync(`/proc/${process.pid}/task`).map(nice);
    expect(threads.filter((n) => n === Math.min(19, own + READER_NICE))).toHaveLength(2);
  });

  it('each thread’s connection has a page cache of READER_CACHE_KIB, not the driver’s 16 MB (kept by the thread once filled)', async () => {
    const both = await Promise.all([
      reader.get<{ cache_size: number }>('PRAGMA cache_size'),
      reader.get<{ cache_size: number }>('PRAGMA cache_size'),
    ]);
    expect(READER_CACHE_KIB).toBeLessThan(16_000);
    expect(both.map((row) => row!.cache_size)).toEqual([-READER_CACHE_KIB, -READER_CACHE_KIB]);
  });

  it('two large answers at once: each whole, neither mixed with the other', async () => {
    const size = READER_PAGE_ROWS * 3 + 17;
    const [a, b] = await Promise.all([
      reader.all<{ n: number; side: string }>(LIKE_FILTERED.replace("'page' AS dimension", "'a' AS side"), [size]),
      reader.all<{ n: number; side: string }>(LIKE_FILTERED.replace("'page' AS dimension", "'b' AS side"), [size + 1]),
    ]);
    expect(a.map((row) => row.n)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
    expect(new Set(a.map((row) => row.side))).toEqual(new Set(['a']));
    expect(b.map((row) => row.n)).toEqual(Array.from({ length: size + 1 }, (_, i) => i + 1));
    expect(new Set(b.map((row) => row.side))).toEqual(new Set(['b']));
  });

  it('closed while a large answer comes: the read fails with the reason, nothing is left waiting', async () => {
    const large = reader.all<Row>(LIKE_FILTERED, [ROWS]);
    const failed = large.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    // the first page is here once a read of one row, asked after it, is answered
    await reader.get('SELECT 1');
    await reader.close();
    expect(await failed).toBe('the store is closed');
  });
});
