import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { BUNDLE, collectPageErrors, grantConsent } from '../support/browser';
import type { TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});

/** What the page sees of the banner at a moment: whether it is in the page, and the parser's state. */
const PROBE = `({ banner: !!document.querySelector('pagepulse-consent')?.shadowRoot?.querySelector('.banner'), loading: document.readyState === 'loading' })`;

/**
 * A page whose bundle tag sits in the body with more content after it: an inline script right
 * after the tag records what the page looks like when the parser goes on, a DOMContentLoaded
 * listener what it looks like then. A category-1 script after the tag must still run.
 */
function page(where: 'body' | 'head'): string {
  const tag = `<script src="/dist/${BUNDLE}" data-privacy-url="/datenschutz.html"></script>`;
  return `<!doctype html>
<html lang="de">
<head><meta charset="utf-8"><title>Banner first</title>
<script>document.addEventListener('DOMContentLoaded', () => { window.__atReady = ${PROBE}; });</script>
${where === 'head' ? tag : ''}
</head>
<body>
<h1>Seite</h1>
${where === 'body' ? `${tag}<script>window.__afterTag = ${PROBE};</script>` : ''}
<p>Inhalt nach dem Skript</p>
<script type="text/plain" data-category="1">window.__necessaryRan = true;</script>
<script type="text/plain" data-category="3">window.__statisticsRan = true;</script>
</body>
</html>`;
}

it('shows a first visit banner while its script runs, before the parser goes on, and focuses it', async () => {
  server.page('/first-body.html', page('body'));
  const context = await browser.newContext();
  const tab = await context.newPage();
  const errors = collectPageErrors(tab);
  await tab.goto(`${server.origin}/first-body.html`);
  await tab.waitForFunction(() => (window as unknown as { __atReady?: unknown }).__atReady !== undefined);
  const seen = await tab.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return { afterTag: w.__afterTag, atReady: w.__atReady };
  });
  expect(seen.afterTag).toEqual({ banner: true, loading: true });
  expect(seen.atReady).toMatchObject({ banner: true });
  // focus moves to the banner (React: in the same task; preact runs effects after the next frame)
  await tab.waitForFunction(() => {
    const root = document.querySelector('pagepulse-consent')?.shadowRoot;
    return !!root && root.activeElement === root.querySelector('.banner');
  });
  // released at DOM ready although the widget started before the parser reached them: the
  // locked category runs, Statistiken (off by default) stays held
  await tab.waitForFunction(() => (window as unknown as { __necessaryRan?: boolean }).__necessaryRan === true);
  expect(await tab.evaluate(() => (window as unknown as { __statisticsRan?: boolean }).__statisticsRan)).toBeUndefined();
  // the widget works as before: a choice closes the banner (and reloads the page)
  await tab.evaluate(() =>
    (document.querySelector('pagepulse-consent')!.shadowRoot!.querySelector('.actions button') as HTMLButtonElement).click(),
  );
  await expect
    .poll(async () => (await context.cookies()).find((c) => c.name === 'cookieconsent_status')?.value, { timeout: 5000 })
    .toBe('deny');
  expect(errors).toEqual([]);
  await context.close();
});

it('with the tag in <head> (no body yet), shows the banner at DOMContentLoaded', async () => {
  server.page('/first-head.html', page('head'));
  const context = await browser.newContext();
  const tab = await context.newPage();
  const errors = collectPageErrors(tab);
  await tab.goto(`${server.origin}/first-head.html`);
  await tab.waitForFunction(() => (window as unknown as { __atReady?: unknown }).__atReady !== undefined);
  // the listener in <head> runs before the bundle's own DOMContentLoaded listener
  expect(await tab.evaluate(() => (window as unknown as { __atReady: unknown }).__atReady)).toMatchObject({ banner: false });
  await tab.waitForFunction(() => !!document.querySelector('pagepulse-consent')?.shadowRoot?.querySelector('.banner'), null, {
    timeout: 5000,
  });
  await tab.waitForFunction(() => (window as unknown as { __necessaryRan?: boolean }).__necessaryRan === true);
  expect(errors).toEqual([]);
  await context.close();
});

it('mounts nothing early on a return visit: no banner, the held scripts of allowed categories run', async () => {
  server.page('/return-body.html', page('body'));
  const context = await browser.newContext();
  await grantConsent(context, server.origin, '1.2.3');
  const tab = await context.newPage();
  const errors = collectPageErrors(tab);
  await tab.goto(`${server.origin}/return-body.html`);
  await tab.waitForFunction(() => (window as unknown as { __statisticsRan?: boolean }).__statisticsRan === true);
  const seen = await tab.evaluate(() => (window as unknown as { __afterTag: unknown }).__afterTag);
  expect(seen).toEqual({ banner: false, loading: true });
  expect(await tab.evaluate(() => !!document.querySelector('pagepulse-consent')?.shadowRoot?.querySelector('.banner'))).toBe(
    false,
  );
  expect(errors).toEqual([]);
  await context.close();
});

it('announces a choice made on the early banner while the page still parses (pagepulse:consent), and the start-up announces none', async () => {
  // the events as the page sees them, from a listener in <head>; the visitor answers the banner
  // right after the tag, before the parser reaches the rest of the page
  const listen = `<script>window.__events = []; document.addEventListener('pagepulse:consent', (e) =>
    window.__events.push({ loading: document.readyState === 'loading', statistics: e.detail.categories[3] }));</script>`;
  const answer = `<script>[...document.querySelector('pagepulse-consent').shadowRoot.querySelectorAll('button')]
    .find((b) => /Alle akzeptieren/.test(b.textContent)).click();</script>`;
  const html = page('body').replace('<title>', `${listen}<title>`);
  server.page('/choice-early.html', html.replace('<p>Inhalt nach dem Skript</p>', `${answer}<p>Inhalt nach dem Skript</p>`));
  server.page('/no-choice.html', html);
  const context = await browser.newContext();
  const tab = await context.newPage();
  const errors = collectPageErrors(tab);
  const events = () => tab.evaluate(() => (window as unknown as { __events: unknown[] }).__events);
  // no choice: the page loads (the options read once more at DOMContentLoaded) and nothing is announced
  await tab.goto(`${server.origin}/no-choice.html`);
  await tab.waitForFunction(() => (window as unknown as { __necessaryRan?: boolean }).__necessaryRan === true);
  expect(await events()).toEqual([]);
  await tab.goto(`${server.origin}/choice-early.html`);
  await tab.waitForFunction(() => (window as unknown as { __statisticsRan?: boolean }).__statisticsRan === true);
  expect(await events()).toEqual([{ loading: true, statistics: true }]);
  expect(errors).toEqual([]);
  await context.close();
});
