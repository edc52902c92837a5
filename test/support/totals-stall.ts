import { expect } from 'vitest';
import type { Harness, Visitor } from './collector';

// The scenario of the day-totals stall tests (test/server/totals-stall.test.ts on SQLite,
// totals-stall.postgres.test.ts on PostgreSQL): its sizes and times, and what the totals must hold
// once the builder is done, whichever engine wrote them.

export const LABELS = Number(process.env.PAGEPULSE_STALL_LABELS ?? 20_000);
/** Yesterday's distinct pages (its filtered month totals, counted from the rows, are most of the run's time). */
export const DAY_LABELS = Number(process.env.PAGEPULSE_STALL_DAY_LABELS ?? LABELS / 2);
export const SITE = 'http://lichtwerk.test';
/** Yesterday (the harness's today is 1 May 2025, 10:00 UTC), 02:00 to 20:00 UTC: inside the day in any zone of ±2 h. */
export const FROM = Date.UTC(2025, 3, 30, 2);
export const STEP = Math.floor((18 * 3_600_000) / DAY_LABELS);
/** Heartbeats due every 20 ms, from VISITORS visitors in turn (100 visitors on the default 2 s). */
export const BEAT_EVERY_MS = 20;
export const VISITORS = 5;

/** The days of March, whose day totals the seed writes and whose month totals the builder sums. */
export const MARCH = Array.from({ length: 31 }, (_, i) => `2025-03-${String(i + 1).padStart(2, '0')}`);

/**
 * The seed's first part, the same on both engines: one page view on 1 March (the earliest, so March
 * is a month of the builder) and the builder's run over it (every day from then built, in the
 * collector's zone). The engine's own statements then write March's day totals and yesterday.
 */
export async function seedFirstView(h: Harness): Promise<void> {
  const session = 'a'.padEnd(64, '0');
  const at = Date.UTC(2025, 2, 1, 12);
  await h.execute('INSERT INTO sessions (id, first_seen, last_seen, user_agent) VALUES (?, ?, ?, ?)', [
    [session, at, at, 'test'],
  ]);
  await h.execute(
    'INSERT INTO visits (id, session_id, started_at, last_view_at, views, entry_page, exit_page) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [[1, session, at, at, 1, `${SITE}/`, `${SITE}/`]],
  );
  await h.execute('INSERT INTO page_views (visit_id, session_id, page, at, last_at) VALUES (?, ?, ?, ?, ?)', [
    [1, session, `${SITE}/`, at, at],
  ]);
  await h.buildTotals();
}

/**
 * Heartbeats due every BEAT_EVERY_MS from `visitors` in turn, each sent when due whether the ones
 * before were answered or not and timed from when it was due (`beats`, with its due time in `dues`):
 * a beat the collector's thread could not even send while held counts the hold (the bundle's timer
 * is in the visitor's browser). `stop()` sends no more and waits for every answer.
 */
export function beatSteadily(visitors: readonly Visitor[]): { beats: number[]; dues: number[]; stop(): Promise<void> } {
  const beats: number[] = [];
  const dues: number[] = [];
  const sent: Array<Promise<void>> = [];
  let beating = true;
  const loop = (async () => {
    for (let i = 0, due = performance.now(); beating; i++, due += BEAT_EVERY_MS) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const at = due;
      sent.push(
        visitors[i % visitors.length]!.beat(`${SITE}/`).then(() => {
          beats.push(performance.now() - at);
          dues.push(at);
        }),
      );
    }
  })();
  return {
    beats,
    dues,
    async stop() {
      beating = false;
      await loop;
      await Promise.all(sent);
    },
  };
}

/** The p-th percentile of `values` (0 for none). */
export const percentile = (values: readonly number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;

/** What the totals hold after the build: yesterday's pages, entries and exits, March's sums per page, April's pages, the built marks. */
export async function expectTotalsKept(h: Harness): Promise<void> {
  const [yesterday] = await h.query(
    "SELECT COUNT(*) AS labels, SUM(n) AS n FROM stats_visits WHERE day = '2025-04-30' AND metric IN ('page', 'entry', 'exit')",
  );
  expect(yesterday).toEqual({ labels: 3 * DAY_LABELS, n: 3 * DAY_LABELS });
  const [march] = await h.query(
    "SELECT COUNT(*) AS labels, SUM(n) AS n FROM stats_visits WHERE day = '2025-03' AND metric = 'page'",
  );
  const perDay = Array.from({ length: LABELS }, (_, k) => 1 + ((k + 1) % 3)).reduce((a, b) => a + b, 0);
  // the seeded page view of 1 March was replaced by its day totals: March holds the seeded ones only
  expect(march).toEqual({ labels: 31 * LABELS, n: 31 * perDay });
  const [april] = await h.query("SELECT COUNT(*) AS labels FROM stats_visits WHERE day = '2025-04' AND metric = 'page'");
  expect(april).toEqual({ labels: DAY_LABELS });
  const built = await h.query("SELECT day FROM stats_built WHERE day IN ('2025-04-30', '2025-03', '2025-04') ORDER BY day");
  expect(built.map((r) => r.day)).toEqual(['2025-03', '2025-04', '2025-04-30']);
}
