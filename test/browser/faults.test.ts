import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, grantConsent, launch, shadowText } from '../support/browser';
import { FAULTS } from '../support/faults';
import { DEFAULT_STREAM_ANSWER, fixturePage, startServer, type TestServer } from '../support/server';

let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  browser = await launch();
  server = await startServer();
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

// the page's own script must keep running whatever the server does
const HOST_SCRIPT = '<script>window.__ticks = 0; setInterval(() => window.__ticks++, 50);</script>';
const fast = { body: { ...DEFAULT_STREAM_ANSWER, configparams: { ...DEFAULT_STREAM_ANSWER.configparams, daemonrefresh: 0.1, heatmap_max_valid_width: 2000 } } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function open(path: string) {
  const context = await browser.newContext();
  await grantConsent(context, server.origin);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  // a short request timeout so "slower than the timeout" is quick to test
  server.page(path, fixturePage({ head: HOST_SCRIPT, body: '<button id="b">Knopf</button>', attrs: { 'data-debug': '1' } }).replace('<script src="/dist', '<script>window.PagePulseConfig = { requestTimeout: 700 }</script><script src="/dist'));
  await page.goto(`${server.origin}${path}`);
  return { context, page, errors };
}

describe('faulty server: heartbeat (stream.display)', () => {
  for (const [index, fault] of FAULTS.entries()) {
    it(`${fault.name}: ${fault.retried ? 'retried with backoff, then resumes' : 'stops the loop'}`, async () => {
      const path = `/hb-${index}.html`;
      const task = 'stream.display';
      let calls = 0;
      // calls 2 and 3 fail (two backoff steps; Chromium silently retries a single reset once);
      // the others are healthy and ask for a 0.1 s interval
      server.on(task, (request) => {
        if (!request.body.includes(encodeURIComponent(path))) return fast;
        calls++;
        return calls === 2 || calls === 3 ? fault.reply : fast;
      });
      const { context, page, errors } = await open(path);
      await expect.poll(() => shadowText(page, 'pagepulse-debug'), { timeout: 8000 }).toMatch(fault.shows);
      const ticks = await page.evaluate(() => (window as unknown as { __ticks: number }).__ticks);
      if (fault.retried) await expect.poll(() => calls, { timeout: 6000 }).toBeGreaterThanOrEqual(5);
      else {
        await sleep(1200);
        expect(calls).toBe(2);
      }
      await sleep(700); // 50 ms ticks: the page's own timer must have run on
      expect(await page.evaluate(() => (window as unknown as { __ticks: number }).__ticks)).toBeGreaterThan(ticks + 10);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('faulty server: heatmap click (stream.saveEntity)', () => {
  for (const [index, fault] of FAULTS.entries()) {
    it(`${fault.name}: shown in the debug box, the page unharmed`, async () => {
      const path = `/click-${index}.html`;
      server.on('stream.display', () => ({ body: { ...fast.body, configparams: { ...fast.body.configparams, daemonrefresh: 5 } } }));
      server.on('stream.saveEntity', () => fault.reply);
      const { context, page, errors } = await open(path);
      await server.waitFor('stream.display', 1);
      await sleep(150);
      await page.click('#b');
      await expect.poll(() => shadowText(page, 'pagepulse-debug'), { timeout: 8000 }).toMatch(/Heatmap \(Client\)|Unerwartete/);
      const ticks = await page.evaluate(() => (window as unknown as { __ticks: number }).__ticks);
      await sleep(300);
      expect(await page.evaluate(() => (window as unknown as { __ticks: number }).__ticks)).toBeGreaterThan(ticks + 2);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
