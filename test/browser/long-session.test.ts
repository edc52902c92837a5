import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUNDLE, launch } from '../support/browser';
import { longSession } from '../support/long-session';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

it('keeps DOM nodes, listeners and heap flat over 2000 heartbeats', { timeout: 180_000 }, async () => {
  const samples = await longSession(browser, 2000, [600, 1300, 2000]);
  console.log(
    `long session (${BUNDLE}):`,
    samples
      .map((s) => `${s.beats} beats: ${s.nodes} nodes, ${s.listeners} listeners, ${(s.heapUsed / 1024).toFixed(0)} KiB heap`)
      .join('; '),
  );
  const [early, , late] = samples;
  // from 500 beats on the debug store holds its cap of 50 messages and the box shows its last three; badges are rewritten in place
  expect(late!.nodes).toBeLessThanOrEqual(early!.nodes + 10);
  // each figure is the smallest of three readings (see longSession): a leak would grow with the beats
  expect(late!.listeners).toBeLessThanOrEqual(early!.listeners + 2);
  expect(late!.heapUsed).toBeLessThan(early!.heapUsed + 512 * 1024);
});
