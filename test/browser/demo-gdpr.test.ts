import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launch } from '../support/browser';
import { removeDir, startCollector, type Harness } from '../support/collector';
import { serveBundleUnderTest } from '../support/demo';

/** Absence window: long enough for three heartbeats; no heartbeat, video or ad pixel in it. */
const THREE_HEARTBEATS_MS = 2500;

/** demo/gdpr.html prints com_gdpr's globals as a Joomla site's system plugin would (docs/protocol.md#consent-at-start-up). */
let browser: Browser;
let collector: Harness;

beforeAll(async () => {
  browser = await launch();
  collector = await startCollector({ now: Date.now, settings: { daemonrefresh: 0.5 } });
});
afterAll(async () => {
  await browser.close();
  await collector.close();
  removeDir(collector.dbPath);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A visitor on /gdpr.html, with com_gdpr's status cookie if given; records the page's requests. */
async function open(status?: string): Promise<{ context: BrowserContext; page: Page; errors: string[]; urls: string[] }> {
  const context = await browser.newContext();
  await serveBundleUnderTest(context);
  if (status) await context.addCookies([{ name: 'cookieconsent_status', value: status, url: collector.url, sameSite: 'Lax' }]);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  await page.goto(`${collector.url}/gdpr.html`);
  return { context, page, errors, urls };
}
const banner = (page: Page) => page.locator('pagepulse-consent .banner');

describe('demo page with com_gdpr globals', () => {
  it("a new visitor sees the site's texts and category names; declining reopens the banner on the next view", async () => {
    const { context, page, errors } = await open();
    await banner(page).waitFor();
    expect(await page.locator('pagepulse-consent #pp-title').textContent()).toBe('Cookies bei Lichtwerk');
    expect(await page.locator('pagepulse-consent .actions button').allTextContents()).toEqual([
      'Nur notwendige',
      'Auswahl speichern',
      'Cookies erlauben',
    ]);
    expect(await page.locator('pagepulse-consent button.name').allTextContents()).toEqual([
      'Technisch notwendig',
      'Komfort',
      'Besucherstatistik',
      'Videos und Werbung',
    ]);
    // the decline reloads the page: wait for that reload's load event (the current page's 'load' has
    // passed already, and a goto sent before the reload starts is aborted by it)
    const reloaded = page.waitForEvent('load');
    await page.locator('pagepulse-consent').getByRole('button', { name: 'Nur notwendige' }).click();
    await page.waitForFunction(() => document.cookie.includes('cookieconsent_status=deny'));
    await reloaded;
    await page.goto(`${collector.url}/gdpr.html`);
    await banner(page).waitFor();
    expect(await page.evaluate(() => window.PagePulse!.consent.get().status)).toBe('deny');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a returning com_gdpr visitor with only "allow": no heartbeat, no video, no ad pixel', async () => {
    const { context, page, errors, urls } = await open('allow');
    await page.waitForFunction(() => window.PagePulse !== undefined);
    await sleep(THREE_HEARTBEATS_MS);
    expect(
      urls.filter((u) => u.includes('com_jrealtimeanalytics') || u.includes('/assets/vendor/') || u.includes('/assets/embed/')),
    ).toEqual([]);
    expect(await page.evaluate(() => window.PagePulse!.consent.get().categories)).toEqual({
      1: true,
      2: true,
      3: false,
      4: false,
    });
    expect(await banner(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
