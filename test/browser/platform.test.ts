import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectPageErrors, pauseClock, shadowText } from '../support/browser';
import { fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

/** Absence window: after destroy() no keep-alive leaves (300 ms interval, so one would). */
const NO_KEEPALIVE_MS = 1000;
/** Absence window: data-keepalive="off" sends no keep-alive. */
const NO_KEEPALIVE_OFF_MS = 900;

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A page without consent (the tracker stays silent) and without the consent widget. */
async function open(
  path: string,
  options: { body?: string; head?: string; attrs?: Record<string, string>; pausedClock?: boolean } = {},
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const { pausedClock, ...markup } = options;
  server.page(path, fixturePage({ ...markup, attrs: { 'data-consent': 'off', ...options.attrs } }));
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  if (pausedClock) {
    // the page's timers run only when the test runs its clock: exact times, and no test-side sleep
    await pauseClock(page);
  }
  await page.goto(`${server.origin}${path}`);
  await page.waitForFunction(() => window.PagePulse);
  return { page, errors, close: () => context.close() };
}

/** How long a notification stays (src/ui/notify/store.ts DEFAULT_TIMEOUT_MS, docs/protocol.md). */
const NOTIFY_MS = 5000;
/** A message joins the live region this long after notify(). */
const ADD_DELAY_MS = 50;
/** The clock run before the pointer comes onto a notification: its timer has the rest left then. */
const BEFORE_HOVER_MS = 2000;
/** The clock run while a notification is hovered: well past its 5 s. */
const HOVERED_MS = 60_000;

describe('notifications', () => {
  it('close after 5 s, stay while hovered, close after the pointer leaves', async () => {
    // on the page's own clock, paused and run by the test: the notification's timer is the page's
    // setTimeout and its hover the real pointer's events; a 4,999 ms run must leave it, 1 ms more close it
    const { page, errors, close } = await open('/notify.html', { pausedClock: true });
    const shown = () => shadowText(page, 'pagepulse-notify');
    await page.evaluate(() => window.PagePulse!.notify('Erste Nachricht'));
    // the live region first, the message 50 ms later (src/ui/notify/index.ts: screen readers announce
    // what changes in a region that is already there)
    await page.locator('pagepulse-notify ol').waitFor({ state: 'attached' });
    await page.clock.runFor(ADD_DELAY_MS);
    await expect.poll(shown).toContain('Erste Nachricht');
    const region = await page.evaluate(() =>
      document.querySelector('pagepulse-notify')!.shadowRoot!.querySelector('ol')!.getAttribute('aria-live'),
    );
    expect(region).toBe('polite');
    const box = await page.evaluate(() => {
      const rect = document.querySelector('pagepulse-notify')!.shadowRoot!.querySelector('li')!.getBoundingClientRect();
      return { centre: rect.left + rect.width / 2, top: rect.top, width: innerWidth };
    });
    expect(Math.abs(box.centre - box.width / 2)).toBeLessThan(2); // top-center
    expect(box.top).toBeLessThan(40);
    await page.clock.runFor(NOTIFY_MS - 1);
    expect(await shown()).toContain('Erste Nachricht');
    await page.clock.runFor(1);
    await expect.poll(shown).not.toContain('Erste Nachricht');

    await page.evaluate(() => window.PagePulse!.notify('Zweite Nachricht', { status: 'warning' }));
    await page.clock.runFor(ADD_DELAY_MS);
    const item = page.locator('pagepulse-notify li');
    await item.waitFor();
    await page.clock.runFor(BEFORE_HOVER_MS);
    await item.hover();
    await page.clock.runFor(HOVERED_MS); // held: no close while hovered, far past its 5 s
    expect(await shown()).toContain('Zweite Nachricht');
    await page.mouse.move(5, 700);
    // from the pointer leaving: the 3 s its timer had left when the pointer came
    await page.clock.runFor(NOTIFY_MS - BEFORE_HOVER_MS - 1);
    expect(await shown()).toContain('Zweite Nachricht');
    await page.clock.runFor(1);
    await expect.poll(shown).not.toContain('Zweite Nachricht');
    expect(errors).toEqual([]);
    await close();
  });

  it('shows texts as text and closes with its button', async () => {
    const { page, close } = await open('/notify2.html');
    await page.evaluate(() => window.PagePulse!.notify('<img src=x onerror="window.__pwned=1">', { timeout: 0 }));
    await expect.poll(() => shadowText(page, 'pagepulse-notify')).toContain('<img src=x');
    await page.locator('pagepulse-notify').getByRole('button', { name: 'Schließen' }).click();
    await expect.poll(() => page.locator('pagepulse-notify li').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await close();
  });
});

describe('error alerts of the request helper', () => {
  it('renders a 500 with a JSON message and a timeout in #system-message-container', async () => {
    server.on('user.fail500', () => ({ status: 500, body: { message: 'Die Datenbank antwortet nicht' } }));
    server.on('user.slow', () => 'hang');
    const { page, errors, close } = await open('/alerts.html', { body: '<div id="system-message-container"></div>' });
    const result = await page.evaluate(() =>
      window.PagePulse!.request({ url: '/index.php?option=com_test&task=user.fail500', data: [['a', '1']] }),
    );
    expect(result).toEqual({ ok: false, error: { kind: 'http', status: 500, detail: 'Die Datenbank antwortet nicht' } });
    const alerts = page.locator('#system-message-container [role="alert"]');
    await expect.poll(() => alerts.count()).toBe(1);
    expect(await alerts.first().textContent()).toContain(
      'Beim Abrufen der JSON-Daten ist ein Fehler aufgetreten: HTTP-Statuscode 500. Die Datenbank antwortet nicht',
    );
    expect(await alerts.first().getAttribute('class')).toContain('alert-danger');

    await page.evaluate(() => window.PagePulse!.request({ url: '/index.php?option=com_test&task=user.slow', timeout: 300 }));
    await expect.poll(() => alerts.count()).toBe(2);
    expect(await alerts.nth(1).textContent()).toContain('Die Zeit für die Verarbeitung der Anfrage beim Server ist abgelaufen.');
    await alerts.nth(1).getByRole('button').click();
    await expect.poll(() => alerts.count()).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });

  it('goes through Joomla.renderMessages where the page has it', async () => {
    server.on('user.fail502', () => ({ status: 502, body: 'upstream' })); // Node answers 502 with its status text 'Bad Gateway'
    const { page, close } = await open('/alerts-joomla.html', {
      head: '<script>window.__rendered = []; window.Joomla = { renderMessages: function (m) { window.__rendered.push(m); } };</script>',
      body: '<div id="system-message-container"></div>',
    });
    await page.evaluate(() => window.PagePulse!.request({ url: '/index.php?option=com_test&task=user.fail502' }));
    expect(await page.evaluate(() => (window as unknown as { __rendered: unknown[] }).__rendered)).toEqual([
      { error: ['Beim Abrufen der JSON-Daten ist ein Fehler aufgetreten: HTTP-Statuscode 502. Bad Gateway'] },
    ]);
    expect(await page.locator('#system-message-container [role="alert"]').count()).toBe(0);
    await close();
  });

  it('falls back to a danger notification without a message container', async () => {
    server.on('user.fail404', () => ({ status: 404, body: 'nope' }));
    const { page, close } = await open('/alerts-none.html');
    await page.evaluate(() => window.PagePulse!.request({ url: '/index.php?option=com_test&task=user.fail404' }));
    await expect.poll(() => shadowText(page, 'pagepulse-notify')).toContain('HTTP-Statuscode 404');
    expect(await page.locator('pagepulse-notify li.danger').count()).toBe(1);
    await close();
  });
});

describe('keep-alive', () => {
  it('calls com_ajax at the configured interval and stops after destroy()', async () => {
    const before = server.calls('com_ajax').length;
    // when the bundle issues each keep-alive, taken in the page: arrival times at the server add
    // connection set-up and scheduling jitter of a loaded machine that are not the bundle's
    const WATCH =
      "<script>window.__keepalive = []; const f = window.fetch; window.fetch = function (input) { if (String(input && input.url || input).includes('com_ajax')) window.__keepalive.push(performance.now()); return f.apply(this, arguments); };</script>";
    const { page, errors, close } = await open('/keepalive.html', { attrs: { 'data-keepalive': '300' }, head: WATCH });
    await server.waitFor('com_ajax', before + 7, 8000);
    const calls = server.calls('com_ajax').slice(before);
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url).toBe('/index.php?option=com_ajax&format=json');
    const issued = await page.evaluate(() => (window as unknown as { __keepalive: number[] }).__keepalive);
    expect(issued.length).toBeGreaterThanOrEqual(7);
    // a repeating timer is drift-free: a tick delayed by a busy main thread shortens the next
    // gap, so one late tick moves two gaps and the mean; the median of six stays on the interval
    const gaps = issued
      .slice(1, 7)
      .map((at, i) => at - issued[i]!)
      .sort((a, b) => a - b);
    // a second timer beside the first gives gaps of a few ms (and a median of half the interval); a
    // tick that a loaded CI machine delayed by 265 ms left a gap of 35.8 ms, so the floor is 10
    expect(gaps[0]!).toBeGreaterThanOrEqual(10);
    expect(gaps[5]!).toBeLessThan(800);
    const median = (gaps[2]! + gaps[3]!) / 2;
    expect(median).toBeGreaterThanOrEqual(260);
    expect(median).toBeLessThan(400);
    await page.evaluate(() => window.PagePulse!.destroy());
    const stopped = server.calls('com_ajax').length;
    await sleep(NO_KEEPALIVE_MS);
    expect(server.calls('com_ajax').length).toBe(stopped);
    expect(errors).toEqual([]);
    await close();
  });

  it('uses the page options system.keepalive uri and interval, and data-keepalive="off" disables it', async () => {
    const options = JSON.stringify({
      'system.keepalive': { interval: 250, uri: '/index.php?option=com_ajax&format=json&custom=1' },
    });
    const { close } = await open('/keepalive-options.html', {
      head: `<script type="application/json" class="joomla-script-options new">${options}</script>`,
    });
    await expect
      .poll(() => server.requests.filter((r) => r.url.includes('custom=1')).length, { timeout: 3000 })
      .toBeGreaterThanOrEqual(3);
    await close();
    const before = server.calls('com_ajax').length;
    const off = await open('/keepalive-off.html', {
      attrs: { 'data-keepalive': 'off' },
      head: `<script type="application/json" class="joomla-script-options new">${options}</script>`,
    });
    await sleep(NO_KEEPALIVE_OFF_MS);
    expect(server.calls('com_ajax').length).toBe(before);
    await off.close();
  });
});
