import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUNDLE, collectConsole, collectPageErrors, grantConsent, pauseClock, shadowText } from '../support/browser';
import { enc } from '../support/jquery-param';
import { protostarPage } from '../support/protostar';
import { COUNT_ANSWERS, realExchange, realReply, type Recorded, type Reply, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

// The analytics component's answers replayed VERBATIM from the recording of a real Joomla 3.9.12 +
// com_jrealtimeanalytics 3.4.6 server (../shared/fixtures/real-server/jrealtimeanalytics-3.4.6.json,
// with the component's enable_debug "1" and daemonrefresh "6"), on that site's own protostar home
// page. The page's clock is Playwright's fake one, paused: the recorded 6 s interval is kept and
// run through by the test instead of waited for.

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});

/** The debug box's height bound (debug.css at 13 px: three one-line messages, the count line and padding: 105 px). */
const BOUND_PX = 110;
/** The recorded 6 s interval (daemonrefresh "6"). */
const REFRESH_MS = 6000;
/** The clock run past the next call: a loop that ended sends none in it. */
const NO_CALL_MS = 4 * REFRESH_MS;

/** The recorded heartbeat answer for a call: first or later, with or without the module. */
function recordedHeartbeat(request: Recorded): Reply {
  const form = new URLSearchParams(request.body);
  const module = form.get('module_available') === '1' ? 'module on the page' : 'module not on the page';
  return realReply(form.get('initialize') === 'true' ? `first heartbeat (initialize), ${module}` : `later heartbeat, ${module}`);
}

/** A recorded request body with the page's address in place of `{nowpage}`. */
const recordedBody = (name: string, href: string): string => realExchange(name).request.body.replace('{nowpage}', enc(href));

const beats = (path: string): Recorded[] =>
  server.calls('stream.display').filter((r) => new URLSearchParams(r.body).get('nowpage')?.endsWith(path));
const saves = (path: string): Recorded[] =>
  server.calls('stream.saveEntity').filter((r) => new URLSearchParams(r.body).get('nowpage')?.endsWith(path));
const answers = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __answers: number }).__answers);

/** The page stays when a link is clicked (the menu's Home), so that the click's answer is read there. */
const STAY = "<script>document.addEventListener('click', function (e) { e.preventDefault(); });</script>";

/** The protostar home page with the bundle's tag last in the body, on a fake clock. */
async function open(path: string, options: { module?: boolean; width?: number } = {}) {
  server.page(
    path,
    protostarPage(server.origin, {
      head: COUNT_ANSWERS + STAY,
      body: `<script src="/dist/${BUNDLE}"></script>`,
      module: options.module,
    }),
  );
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 } });
  await grantConsent(context, server.origin);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const messages = collectConsole(page);
  // paused: the page's timers run only when the test runs the clock (a busy machine's slowness
  // cannot fire a request timeout or an extra heartbeat of its own)
  await pauseClock(page);
  await page.goto(`${server.origin}${path}`);
  return { page, errors, console: messages };
}

/** Run the page's clock one interval on and wait until the call it sends has been answered and read. */
async function nextBeat(page: Page, path: string): Promise<Recorded> {
  const count = beats(path).length;
  const read = await answers(page);
  await page.clock.runFor(REFRESH_MS);
  await expect.poll(() => beats(path).length).toBe(count + 1);
  await expect.poll(() => answers(page)).toBe(read + 1);
  return beats(path)[count]!;
}

/**
 * A real pointer click at the centre of an element: the fake clock is paused, so no wait on
 * animation frames (Playwright's locator click waits for two); what is on top there gets it.
 */
async function pointAt(page: Page, locator: Locator): Promise<void> {
  const box = (await locator.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const debugBox = (page: Page) =>
  page.evaluate(() => document.querySelector('pagepulse-debug')?.shadowRoot?.querySelector('section') ?? null);
const badge = (page: Page, key: string) =>
  page.evaluate((k) => document.querySelector(`#jes_mod span.badge[data-bind="${k}"]`)!.textContent, key);

describe('the real component server, replayed verbatim (enable_debug "1")', () => {
  it('with the module: `{"data-bind":…}` answers fill the badges, the loop goes on, no debug box; a stored click `[]` shows nothing', async () => {
    server.on('stream.display', recordedHeartbeat);
    server.on('stream.saveEntity', () => realReply('click saved'));
    const path = '/real-module.html';
    const { page, errors, console: messages } = await open(path);
    await expect.poll(() => beats(path).length).toBe(1);
    await expect.poll(() => answers(page)).toBe(1);
    const href = await page.evaluate(() => location.href);
    // our first call is the recorded one, then our own device fields (docs/protocol.md#heartbeat)
    expect(
      beats(path)[0]!.body.startsWith(`${recordedBody('first heartbeat (initialize), module on the page', href)}&device_width=`),
    ).toBe(true);
    // the recorded enable_debug "1" turned debug on
    expect(await page.evaluate(() => window.PagePulse!.debug())).toBe(true);
    for (const [key, text] of [
      ['users_onpage', '1'],
      ['visitors', '1'],
      ['users_logged', '0'],
      ['users_total', '1'],
    ] as const)
      expect(await badge(page, key), key).toBe(text);
    // the badges are written by every answer, not left from the first: blank them between calls
    for (let n = 2; n <= 4; n++) {
      await page.evaluate(() => document.querySelectorAll('#jes_mod span.badge[data-bind]').forEach((b) => (b.textContent = '')));
      const call = await nextBeat(page, path);
      expect(call.body, `call ${n}`).toBe(recordedBody('later heartbeat, module on the page', href));
      expect(await badge(page, 'users_onpage'), `call ${n}`).toBe('1');
      expect(await debugBox(page), `call ${n}`).toBeNull();
    }

    // the original's own click on this page, byte for byte, and its answer `[]`
    const saved = page.waitForEvent('console', (m) => m.text().includes('heatmap click saved'));
    await pointAt(page, page.locator('ul.nav.menu a'));
    await expect.poll(() => saves(path).length).toBe(1);
    expect(saves(path)[0]!.body).toBe(recordedBody('click saved', href));
    await saved;
    expect(await debugBox(page)).toBeNull();
    expect(await page.evaluate(() => document.querySelector('pagepulse-debug'))).toBeNull();
    expect(messages.filter((line) => /Unexpected|Unerwartete/.test(line))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('without the module: `[]` answers are ordinary successes, the loop goes on, no debug box', async () => {
    server.on('stream.display', recordedHeartbeat);
    const path = '/real-plain.html';
    const { page, errors } = await open(path, { module: false });
    await expect.poll(() => answers(page)).toBe(1);
    const href = await page.evaluate(() => location.href);
    expect(beats(path)[0]!.body).toContain(recordedBody('first heartbeat (initialize), module not on the page', href));
    expect(await page.evaluate(() => window.PagePulse!.debug())).toBe(true);
    expect(realReply('later heartbeat, module not on the page')).toMatchObject({ body: '[]' });
    for (let n = 2; n <= 5; n++) {
      const call = await nextBeat(page, path);
      expect(call.body, `call ${n}`).toBe(recordedBody('later heartbeat, module not on the page', href));
    }
    expect(await debugBox(page)).toBeNull();
    expect(await page.evaluate(() => window.PagePulse!.tracker.running())).toBe(true);
    expect(errors).toEqual([]);
  });

  for (const falsy of ['null', '0', 'false', '""'])
    it(`a falsy answer (${falsy}) ends the loop silently, as the original's does`, async () => {
      const path = `/real-falsy-${falsy.replace(/\W/g, 'q')}.html`;
      server.on('stream.display', (r) =>
        beats(path).indexOf(r) === 2
          ? { body: falsy, headers: { 'content-type': 'application/json; charset=utf-8' } }
          : recordedHeartbeat(r),
      );
      const { page, errors } = await open(path, { module: false });
      await expect.poll(() => answers(page)).toBe(1);
      await nextBeat(page, path); // `[]`: goes on
      // the falsy answer: no event of an answer read, so wait for the call and the loop's end
      await page.clock.runFor(REFRESH_MS);
      await expect.poll(() => beats(path).length).toBe(3);
      await expect.poll(() => page.evaluate(() => window.PagePulse!.tracker.running())).toBe(false);
      await page.clock.runFor(NO_CALL_MS);
      expect(beats(path)).toHaveLength(3);
      expect(await page.evaluate(() => window.PagePulse!.debug())).toBe(true);
      expect(await debugBox(page)).toBeNull();
      expect(errors).toEqual([]);
    });
});

describe('the debug box never covers the page', () => {
  /** Debug messages from the server's `loading` list: `count` items `Meldung <from>`… */
  const loading = (from: number, count: number, same = false) => ({
    body: {
      loading: Array.from({ length: count }, (_, i) => ({
        corefile: 'stream.php',
        details: same ? 'Immer dieselbe' : `Meldung ${from + i}`,
      })),
    },
  });
  const boxHeight = (page: Page) =>
    page.evaluate(
      () => document.querySelector('pagepulse-debug')!.shadowRoot!.querySelector('section')!.getBoundingClientRect().height,
    );
  const lines = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelector('pagepulse-debug')!.shadowRoot!.querySelectorAll('li'), (li) => li.textContent),
    );

  it('50 messages: about three lines, the rest behind a count, the same one counted on its line; no layout shift; closable by keyboard', async () => {
    const path = '/real-box.html';
    // call 1 verbatim (enable_debug "1"), then messages: 1, 2 more, 1 more, 46 more (50), one repeated 30 times
    const plan: Array<Reply | null> = [null, loading(1, 1), loading(2, 2), loading(4, 1), loading(5, 46), loading(0, 30, true)];
    server.on('stream.display', (r) => plan[beats(path).indexOf(r)] ?? recordedHeartbeat(r));
    server.on('stream.saveEntity', () => realReply('click saved'));
    // narrow enough that the box spans the page's width, so it lies above the breadcrumb
    const { page, errors } = await open(path, { width: 700 });
    const crumb = page.locator('ul.breadcrumb li.active span');
    // where the page's own elements are, and how tall the document is: the box must move none of it
    const where = () =>
      page.evaluate(() => [
        document.documentElement.scrollHeight,
        ...['h1', 'ul.breadcrumb li.active span', 'ul.nav.menu a', '#jes_mod', 'footer'].map((css) =>
          JSON.stringify(document.querySelector(css)!.getBoundingClientRect()),
        ),
      ]);
    const before = await where();
    await expect.poll(() => answers(page)).toBe(1);

    await nextBeat(page, path);
    await expect.poll(() => lines(page)).toEqual(['stream.phpMeldung 1']);
    const one = await boxHeight(page);
    await nextBeat(page, path);
    await nextBeat(page, path);
    await expect.poll(() => lines(page)).toEqual(['stream.phpMeldung 2', 'stream.phpMeldung 3', 'stream.phpMeldung 4']);
    expect(await shadowText(page, 'pagepulse-debug')).toContain('Earlier messages: 1');
    const four = await boxHeight(page);
    await nextBeat(page, path);
    await expect.poll(() => lines(page)).toEqual(['stream.phpMeldung 48', 'stream.phpMeldung 49', 'stream.phpMeldung 50']);
    expect(await shadowText(page, 'pagepulse-debug')).toContain('Earlier messages: 47');
    // 50 messages: the height of four (three lines and the count), not of fifty
    expect(await boxHeight(page)).toBeCloseTo(four, 1);
    expect(one).toBeLessThan(four);
    expect(four).toBeLessThanOrEqual(BOUND_PX);
    // the same message 30 times: one line with its count
    await nextBeat(page, path);
    await expect.poll(() => lines(page)).toEqual(['stream.phpMeldung 49', 'stream.phpMeldung 50', 'stream.phpImmer dieselbe×30']);
    expect(await boxHeight(page)).toBeCloseTo(four, 1);

    // the earlier ones on request, in the same bounded height (the list scrolls)
    const more = page.locator('pagepulse-debug button.more');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await pointAt(page, more);
    // the box re-renders after the pointer's event: read once it has (one CI run read it before)
    await expect.poll(() => more.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => lines(page).then((l) => l.length)).toBe(50);
    expect(await boxHeight(page)).toBeLessThanOrEqual(BOUND_PX);

    // nothing moved, and a click on the breadcrumb under the box lands
    expect(await where()).toEqual(before);
    // the box at rest: its slide-in (300 ms from below, debug.css) runs on the document's timeline,
    // which on a busy machine can still be inside it here (seen: 70 % through, the box 45 px lower)
    await page.evaluate(() =>
      Promise.all(
        document
          .querySelector('pagepulse-debug')!
          .shadowRoot!.getAnimations()
          .map((a) => a.finished),
      ).then(() => null),
    );
    const box = await page.evaluate(
      () => document.querySelector('pagepulse-debug')!.shadowRoot!.querySelector('section')!.getBoundingClientRect().bottom,
    );
    const top = await crumb.evaluate((e) => e.getBoundingClientRect().top);
    expect(top, 'the breadcrumb lies within the height an unbounded box reached (320 px)').toBeLessThan(320);
    expect(box).toBeLessThan(top);
    // a real pointer click at the breadcrumb's centre: it reaches whatever is on top there
    await pointAt(page, crumb);
    await expect.poll(() => saves(path).length).toBe(1);
    expect(new URLSearchParams(saves(path)[0]!.body).get('clicked_element')).toMatch(
      /^div\.body>div\.container>div\.row-fluid>main\.span9>.*>ul\.breadcrumb>li\.active>span$/,
    );

    // keyboard: the close button is reachable and named; Escape inside the box closes it too
    const close = page.locator('pagepulse-debug button.close');
    expect(await close.getAttribute('aria-label')).toBe('Close debug messages');
    expect(await page.locator('pagepulse-debug section').getAttribute('role')).toBe('log');
    await more.focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => debugBox(page)).toBeNull();
    // the same message again does not open it; a new one does, and Enter on the close button closes it
    plan.push(loading(0, 1, true), loading(99, 1));
    await nextBeat(page, path);
    expect(await debugBox(page)).toBeNull();
    await nextBeat(page, path);
    await expect.poll(() => lines(page).then((l) => l.at(-1))).toBe('stream.phpMeldung 99');
    await close.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => debugBox(page)).toBeNull();
    expect(errors).toEqual([]);
  });
});
