import type { Browser } from 'playwright-core';
import { grantConsent } from './browser';
import { componentAnswer, fixturePage, startServer } from './server';

/** Memory figures of a page at one point of a long session (after a forced garbage collection). */
export interface MemorySample {
  beats: number;
  nodes: number;
  listeners: number;
  heapUsed: number;
}

/**
 * Run `beats` heartbeats at a 10 ms interval on a page with the statistics module and debug on
 * (every answer changes the badges and adds a debug message), sampling DOM nodes, JS listeners and
 * heap at each of `at`. Shared by the long-session test and `npm run bench`.
 */
export async function longSession(browser: Browser, beats: number, at: number[]): Promise<MemorySample[]> {
  const server = await startServer();
  const context = await browser.newContext();
  try {
    await grantConsent(context, server.origin);
    server.on('stream.display', (request, n) =>
      componentAnswer(
        request,
        { daemonrefresh: 0.01, enable_debug: 1 },
        {
          loading: n % 10 === 0 ? [{ corefile: 'stream', details: `Durchlauf ${n}` }] : [],
          'data-bind': { users_onpage: String(n), visitors: String(n * 2), users_total: String(n * 3) },
        },
      ),
    );
    server.page(
      '/long.html',
      fixturePage({
        body: `<div id="jes_mod">${['users_onpage', 'visitors', 'users_total'].map((k) => `<span class="badge" data-bind="${k}">0</span>`).join('')}</div>`,
      }),
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${server.origin}/long.html`);
    const samples: MemorySample[] = [];
    for (const target of at) {
      await server.waitFor('stream.display', target, 120_000);
      // three readings a few beats apart, the smallest of each kept: a reading can catch a request
      // in flight or a debug line being rendered; a leak shows in every reading
      const readings: Array<Omit<MemorySample, 'beats'>> = [];
      for (let i = 0; i < 3; i++) {
        if (i > 0) await server.waitFor('stream.display', server.calls('stream.display').length + 5, 10_000);
        await cdp.send('HeapProfiler.collectGarbage');
        const counters = (await cdp.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
        const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
        readings.push({ nodes: counters.nodes, listeners: counters.jsEventListeners, heapUsed: heap.usedSize });
      }
      samples.push({
        beats: target,
        nodes: Math.min(...readings.map((r) => r.nodes)),
        listeners: Math.min(...readings.map((r) => r.listeners)),
        heapUsed: Math.min(...readings.map((r) => r.heapUsed)),
      });
    }
    if (at[at.length - 1]! < beats) await server.waitFor('stream.display', beats, 120_000);
    return samples;
  } finally {
    await context.close();
    await server.close();
  }
}
