import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READER_PAGE_ROWS, sqliteReader } from '../../collector/server/store/sqlite';

// The SQLite reader thread (collector/server/store/sqlite.ts): a large answer reaches the collector's
// thread a page at a time, so that what arrives meanwhile (heartbeats, other reads) is not held
// behind it. One message of a month's filtered totals (60,000 rows) held that thread 150 to 220 ms.

/** Rows like a month's filtered totals: dimension, value, metric, label, n, total. */
const ROWS = 200_000;
const LIKE_FILTERED = `WITH RECURSIVE c (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?)
  SELECT 'page' AS dimension, 'http://lichtwerk.test/seite-' || (i % 300) AS value, 'page' AS metric,
    'http://lichtwerk.test/galerie-' || (i % 293) AS label, i AS n, i * 7 AS total FROM c`;
type Row = { dimension: string; value: string; metric: string; label: string; n: number; total: number };

let dir: string;
let reader: ReturnType<typeof sqliteReader>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pagepulse-reader-'));
  const path = join(dir, 'collector.db');
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

/**
 * The longest time this thread was held while `work` ran (the largest gap between two timer turns).
 * Not node's monitorEventLoopDelay: it read 13 ms where the old reader held this thread 560 ms.
 */
async function longestHold<T>(work: Promise<T>): Promise<{ result: T; held: number }> {
  let held = 0;
  let last = performance.now();
  let done = false;
  const ticking = new Promise<void>((stopped) => {
    const tick = () => {
      const now = performance.now();
      held = Math.max(held, now - last);
      last = now;
      if (done) stopped();
      else setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
  });
  const result = await work;
  done = true;
  await ticking;
  return { result, held };
}

describe('the SQLite reader thread', () => {
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

  it('a read asked for while a large answer comes is answered between its pages, not after the last', async () => {
    const order: string[] = [];
    const large = reader.all<Row>(LIKE_FILTERED, [ROWS]).then((rows) => order.push(`large ${rows.length}`));
    const small = reader.get<{ n: number }>('SELECT 42 AS n').then((row) => order.push(`small ${row!.n}`));
    await Promise.all([large, small]);
    expect(order).toEqual(['small 42', `large ${ROWS}`]);
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
