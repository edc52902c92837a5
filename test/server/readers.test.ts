import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';
import { seedClicks, seedConsents, seedPageViews } from '../support/seed';

// Readers cannot stall the site (docs/scaling.md "Readers and writers"): the public click list, the
// dashboard, the consent statistics and the consent CSV over tables of tens of thousands of rows,
// while a visitor's heartbeats keep being answered. The same with 1 M rows is the bench's
// (`npm run bench:collector`); here a smaller table and the bound that does not grow with it.

/** A heartbeat answered later than this while the readers run means they held the collector. */
const BEAT_BOUND_MS = 250;
const PAGE = 'http://lichtwerk.test/galerie';

let h: Harness;
beforeEach(async () => {
  h = await startCollector({ visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
});
afterEach(() => closeHarness(h));

/**
 * Run `read` in `readers` loops until `beats` heartbeats of one visitor (one after another) were
 * answered; answers each heartbeat's time and how many reads finished meanwhile.
 */
async function heartbeatsDuring(
  read: () => Promise<unknown>,
  readers = 4,
  beats = 20,
): Promise<{ times: number[]; reads: number; failed: string[] }> {
  const visitor = h.visitor();
  await visitor.beat(PAGE, true);
  let reading = true;
  let reads = 0;
  const failed: string[] = [];
  const loops = Array.from({ length: readers }, async () => {
    while (reading) {
      await read().then(
        () => reads++,
        (error: Error) => failed.push(`${error.message} (${String((error.cause as Error | undefined)?.message)})`),
      );
    }
  });
  const times: number[] = [];
  try {
    // the readers are under way before the first beat
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = 0; i < beats; i++) {
      const started = performance.now();
      await visitor.beat(PAGE);
      times.push(Math.round(performance.now() - started));
    }
  } finally {
    reading = false;
    await Promise.all(loops);
  }
  return { times, reads, failed };
}

/** Time of one answer, and its body. */
async function timed(get: () => Promise<Response>): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const res = await get();
  const body = await res.text();
  return { ms: performance.now() - started, status: res.status, body };
}

describe('readers and writers', () => {
  it('the public click list of a page with 200,000 clicks: 4 readers at once, every heartbeat meanwhile within 250 ms', async () => {
    await seedClicks(h, PAGE, 200_000);
    // the ten-minute run has counted the days that ended into day totals (today's are read from the rows)
    await h.buildTotals();
    const read = async () => {
      const res = await fetch(`${h.url}/api/clicks?page=${encodeURIComponent(PAGE)}`);
      await res.arrayBuffer();
      return res.status;
    };
    const { times, reads, failed } = await heartbeatsDuring(read);
    expect(Math.max(...times), `heartbeats ${times.join(', ')} ms`).toBeLessThanOrEqual(BEAT_BOUND_MS);
    expect(failed).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    // and the overlay still gets the page's clicks, the most clicked first
    // (each client has a rate for this read: wait for a token)
    const listed = await vi.waitFor(
      async () => {
        const res = await fetch(`${h.url}/api/clicks?page=${encodeURIComponent(PAGE)}`);
        expect(res.status).toBe(200);
        return (await res.json()) as { clicks: Array<{ selector: string; count: number }> };
      },
      { timeout: 5000, interval: 100 },
    );
    expect(listed.clicks).toHaveLength(400);
    expect(listed.clicks[0]!.count).toBe(500);
  }, 120_000);

  it('the dashboard over 10,000 page views: 30 days and 12 months each within 1 s, heartbeats meanwhile within 250 ms', async () => {
    await seedPageViews(h, 10_000, 300);
    await h.buildTotals();
    const admin = await signIn(h.url);
    for (const period of ['30d', '12m']) {
      const answer = await timed(() => admin.get(`/admin/api/traffic?period=${period}`));
      expect(answer.status).toBe(200);
      expect(answer.ms, `traffic ${period}`).toBeLessThan(1000);
    }
    const year = JSON.parse((await timed(() => admin.get('/admin/api/traffic?period=12m'))).body) as {
      summary: { views: { current: number } };
    };
    expect(year.summary.views.current).toBe(10_000);
    const { times, failed } = await heartbeatsDuring(
      async () => (await admin.get('/admin/api/traffic?period=12m')).arrayBuffer(),
      2,
    );
    expect(Math.max(...times), `heartbeats ${times.join(', ')} ms`).toBeLessThanOrEqual(BEAT_BOUND_MS);
    expect(failed).toEqual([]);
  }, 120_000);

  it('the consent statistics over 100,000 records within 1 s; heartbeats meanwhile within 250 ms', async () => {
    await seedConsents(h, 100_000, 300);
    await h.buildTotals();
    const admin = await signIn(h.url);
    for (const period of ['30d', '12m']) {
      const answer = await timed(() => admin.get(`/admin/api/consent-stats?period=${period}`));
      expect(answer.status).toBe(200);
      expect(answer.ms, `consent statistics ${period}`).toBeLessThan(1000);
    }
    const { times } = await heartbeatsDuring(
      async () => (await admin.get('/admin/api/consent-stats?period=12m')).arrayBuffer(),
      2,
    );
    expect(Math.max(...times), `heartbeats ${times.join(', ')} ms`).toBeLessThanOrEqual(BEAT_BOUND_MS);
  }, 120_000);

  it('the consent CSV of 100,000 records streams: its first line long before its last, heartbeats meanwhile within 250 ms', async () => {
    await seedConsents(h, 100_000, 300);
    const admin = await signIn(h.url);
    const started = performance.now();
    const res = await admin.get('/admin/consents.csv');
    const reader = res.body!.getReader();
    let first = 0;
    let lines = 0;
    const beats: number[] = [];
    const visitor = h.visitor();
    await visitor.beat(PAGE, true);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!first) first = performance.now() - started;
      for (const byte of value) if (byte === 10) lines++;
      // a heartbeat now and then while the export is still being written
      if (beats.length < 10 && lines > beats.length * 5000) {
        const sent = performance.now();
        await visitor.beat(PAGE);
        beats.push(Math.round(performance.now() - sent));
      }
    }
    const total = performance.now() - started;
    expect(lines).toBe(100_001);
    expect(first, `first bytes after ${Math.round(first)} of ${Math.round(total)} ms`).toBeLessThan(total / 4);
    expect(Math.max(...beats), `heartbeats ${beats.join(', ')} ms`).toBeLessThanOrEqual(BEAT_BOUND_MS);
  }, 120_000);
});
