import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, collectPageErrors, launch } from '../support/browser';
import { freePort } from '../support/ports';

// The Joomla package's server half (README "Joomla"): a cassiopeia page with the vendors' snippets
// pasted in, served by `php -S` through the staged plugin (dist/joomla/, the zip's content) on the
// Joomla stand-ins, with the built bundle (PAGEPULSE_BUNDLE) from the package's media/. The vendors'
// hosts are answered by the test itself; every request to them is counted.

/** Vendor hosts on the page (gtag.js and the Maps embed, the pixel, YouTube on both hosts, Vimeo). */
const VENDORS = [
  'www.googletagmanager.com',
  'connect.facebook.net',
  'www.youtube.com',
  'www.youtube-nocookie.com',
  'player.vimeo.com',
  'www.google.com',
];
const BUNDLE_PARAM = BUNDLE === 'pagepulse.iife.js' ? 'react' : 'lite';
const ALL_ALLOWED = { cookieconsent_status: 'allow', cookieconsent_categories: '1.2.3.4' };

let browser: Browser;
let php: ChildProcess;
let origin: string;

/** `php -S` on a free port with the router; resolves once it answers. */
async function startPhp(): Promise<{ process: ChildProcess; origin: string }> {
  const port = await freePort();
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, 'test/php/support/router.php'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) throw new Error(`php -S exited: ${log}`);
    try {
      if ((await fetch(`${url}/index.php?option=ping`)).ok) return { process: child, origin: url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`php -S did not answer: ${log}`);
}

beforeAll(async () => {
  browser = await launch();
  ({ process: php, origin } = await startPhp());
});
afterEach(async () => {
  await Promise.all(browser.contexts().map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  php?.kill();
});

/** A context whose vendor requests are answered here and counted per host. */
async function vendorContext(cookies: Record<string, string> = {}) {
  const context = await browser.newContext();
  await context.addCookies(
    Object.entries(cookies).map(([name, value]) => ({ name, value, url: origin, sameSite: 'Lax' as const })),
  );
  const requests: string[] = [];
  await context.route(
    (url) => VENDORS.includes(url.hostname),
    (route) => {
      const url = route.request().url();
      requests.push(url);
      const script = route.request().resourceType() === 'script';
      return route.fulfill(
        script
          ? {
              contentType: 'text/javascript',
              body: `(window.vendorsRan = window.vendorsRan || []).push(${JSON.stringify(url)});`,
            }
          : { contentType: 'text/html', body: `<!doctype html><title>embed</title><p>${new URL(url).hostname}</p>` },
      );
    },
  );
  return { context, requests };
}

const hosts = (requests: string[]) => [...new Set(requests.map((url) => new URL(url).hostname))].sort();
const page = (blocking = 1, template = 'cassiopeia') =>
  `${origin}/?template=${template}&bundle=${BUNDLE_PARAM}&blocking=${blocking}`;

/** Wait until the bundle runs and the network is quiet (nothing of the page is still loading). */
async function settled(tab: Page): Promise<void> {
  await tab.waitForFunction(() => window.PagePulse !== undefined);
  await tab.waitForLoadState('networkidle');
}

describe(`the Joomla plugin's server half (${BUNDLE})`, () => {
  it('no vendor request before a choice; every vendor after "Alle akzeptieren"', async () => {
    const { context, requests } = await vendorContext();
    const tab = await context.newPage();
    const errors = collectPageErrors(tab);
    const first = await (await context.request.get(page())).text();
    expect(first).toContain('data-src="https://www.youtube.com/embed/pp-test-01?si=PagePulseTest" title="YouTube video player"');
    expect(first).toContain('data-category="4" data-service="youtube"');
    await tab.goto(page());
    await tab.locator('pagepulse-consent .banner').waitFor();
    await settled(tab);
    expect(requests).toEqual([]);
    expect(await tab.evaluate(() => (window as unknown as { vendorsRan?: string[] }).vendorsRan ?? [])).toEqual([]);
    // the bundle's tag comes before every other script, style, link and iframe; it shows placeholders for what the server held back
    expect(await tab.evaluate(() => document.querySelector('script, style, link, iframe')?.getAttribute('src'))).toMatch(
      new RegExp(`^/media/plg_system_pagepulse/${BUNDLE.replace(/\./g, '\\.')}\\?v=`),
    );
    expect(await tab.locator('.gdprlock-placeholder').count()).toBeGreaterThanOrEqual(5);
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('_fbp');

    await tab.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren' }).click();
    // every vendor loads: released in the page, or (after the bundle's reload) sent unchanged by the server
    await expect.poll(() => hosts(requests), { timeout: 20_000 }).toEqual([...VENDORS].sort());
    await settled(tab);
    expect(requests.filter((url) => url.includes('/gtag/js?id=G-PPTEST0001'))).toHaveLength(1);
    expect(requests.filter((url) => url.startsWith('https://connect.facebook.net/en_US/fbevents.js'))).toHaveLength(1);
    expect(requests.filter((url) => url.startsWith('https://www.google.com/maps/embed?'))).toHaveLength(2);
    const ran = await tab.evaluate(() => (window as unknown as { vendorsRan?: string[] }).vendorsRan ?? []);
    expect(ran.map((url) => new URL(url).pathname).sort()).toEqual([
      '/api/player.js',
      '/en_US/fbevents.js',
      '/gtag/js',
      '/gtag/js',
    ]);
    // what the server sends this visitor now: the page unchanged (before the choice: blocked markup)
    const now = await (await context.request.get(page())).text();
    expect(now).not.toContain('type="text/plain" data-category=');
    expect(now).toContain('<iframe width="560" height="315" src="https://www.youtube.com/embed/pp-test-01');
    expect(errors).toEqual([]);
  });

  it('an already-consented visitor gets the page unchanged and every vendor at once', async () => {
    const { context, requests } = await vendorContext(ALL_ALLOWED);
    // what the plugin sends with its server half switched off: the page as Joomla made it, plus the tag
    const unchanged = await (await fetch(page(0))).text();
    const served = await (await context.request.get(page(1))).text();
    expect(served).toBe(unchanged);
    expect(served).toContain('<iframe src="https://www.youtube-nocookie.com/embed/cassiopeia-01"');

    const tab = await context.newPage();
    const errors = collectPageErrors(tab);
    await tab.goto(page());
    await settled(tab);
    expect(hosts(requests)).toEqual([...VENDORS].sort());
    expect(await tab.locator('pagepulse-consent .banner').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a visitor who allowed statistics only: gtag runs, marketing embeds stay held', async () => {
    const { context, requests } = await vendorContext({ cookieconsent_status: 'allow', cookieconsent_categories: '1.2.3' });
    const tab = await context.newPage();
    await tab.goto(page());
    await settled(tab);
    expect(hosts(requests)).toEqual(['www.googletagmanager.com']);
  });

  it('a vendor <embed> and <object>: held by the server with a placeholder, sent as written after the reload a choice makes', async () => {
    const { context, requests } = await vendorContext();
    const tab = await context.newPage();
    const errors = collectPageErrors(tab);
    const embeds = (list: string[]) => list.filter((url) => url.includes('/pp-embed-77') || url.includes('/pp-object-01'));
    const first = await (await context.request.get(page(1, 'embeds'))).text();
    expect(first).not.toMatch(/<embed[^>]*\ssrc="https:\/\/player\.vimeo\.com/);
    expect(first).not.toMatch(/<object[^>]*\sdata="https:\/\/www\.youtube\.com/);
    await tab.goto(page(1, 'embeds'));
    await tab.locator('pagepulse-consent .banner').waitFor();
    await settled(tab);
    expect(requests).toEqual([]);
    // a placeholder for each, besides those of the vendor snippets
    expect(await tab.locator('.gdprlock-placeholder').count()).toBeGreaterThanOrEqual(2);
    await tab.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren' }).click();
    await expect.poll(() => embeds(requests).length, { timeout: 20_000 }).toBe(2);
    await settled(tab);
    expect(
      await tab.evaluate(() => [
        !!document.querySelector('embed[src*="pp-embed-77"]'),
        !!document.querySelector('object[data*="pp-object-01"]'),
      ]),
    ).toEqual([true, true]);
    expect(errors).toEqual([]);
  });
});
