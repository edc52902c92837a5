import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Download, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launch } from '../support/browser';
import { removeDir, signInPage, startCollector, type Harness } from '../support/collector';

/**
 * The CSV exports (the consent log's, the overview's tables): a file is saved with the collector's
 * bytes and name; a refusal is said in the admin's language beside the link and by the live region,
 * never the collector's JSON or a failed download named after the address.
 */

let browser: Browser;
let collector: Harness;
let context: BrowserContext;
let page: Page;
const downloads: Download[] = [];

beforeAll(async () => {
  browser = await launch();
  collector = await startCollector({ now: Date.now });
  // one cookie-consent record, as the bundle logs a choice
  const logged = await fetch(`${collector.url}/index.php?option=com_gdpr&task=user.processGenericCookieCategories`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'gdpr_generic_cookie_consent=1&consent_id=Wq3mZ0-Lk7vR_t2xPn4yBd',
  });
  expect(logged.status).toBe(200);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
  page = await context.newPage();
  page.on('download', (download) => downloads.push(download));
  await signInPage(page, collector.url);
});
afterAll(async () => {
  await browser.close();
  await collector.close();
  removeDir(collector.dbPath);
});

/** The link's address fetched directly with the admin's session: the bytes and name the collector sends. */
async function direct(link: string): Promise<{ bytes: Buffer; name: string | undefined }> {
  const res = await page.request.get(`${collector.url}${await page.getByTestId(link).getAttribute('href')}`);
  expect(res.status()).toBe(200);
  return { bytes: await res.body(), name: /filename="([^"]+)"/.exec(res.headers()['content-disposition'] ?? '')?.[1] };
}

/** A click on the link saves a file: its name and bytes. */
async function save(link: string): Promise<{ bytes: Buffer; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(link).click()]);
  expect(await download.failure()).toBeNull();
  return { bytes: readFileSync((await download.path())!), name: download.suggestedFilename() };
}

/** What the link says of a failure: its description, the live region, focus, and that nothing was saved. */
async function refusal(link: string) {
  return page.getByTestId(link).evaluate((a) => ({
    description: document.getElementById(a.getAttribute('aria-describedby') ?? '')?.textContent ?? null,
    live: document.querySelector('[data-testid="live-region"]')?.textContent,
    focused: document.activeElement === a,
  }));
}

describe('CSV exports', () => {
  it("the consent log: saved under the collector's name with its bytes (byte order mark, CRLF)", async () => {
    await page.goto(`${collector.url}/admin/#log`);
    await expect.poll(() => page.getByTestId('consent-log').textContent()).toContain('Wq3mZ0-Lk7vR_t2xPn4yBd');
    const sent = await direct('csv-link');
    const saved = await save('csv-link');
    expect(saved.name).toMatch(/^pagepulse-consents-\d{4}-\d\d-\d\d\.csv$/);
    expect(saved.name).toBe(sent.name);
    expect(saved.bytes.equals(sent.bytes)).toBe(true);
    expect(saved.bytes.toString('utf8')).toMatch(/^\ufefftime,pseudonym,consent_id,.*\r\n.*Wq3mZ0-Lk7vR_t2xPn4yBd/s);
  });

  it('the consent log of a period the collector refuses (an old bookmark): said in German at the link, nothing saved', async () => {
    const before = downloads.length;
    await page.goto(`${collector.url}/admin/?period=custom&from=2020-01-01&to=2099-01-01#log`);
    await page.getByTestId('csv-link').waitFor();
    const address = page.url();
    await page.getByTestId('csv-link').click();
    const said = 'CSV-Export fehlgeschlagen: „Von“ darf nicht nach „Bis“ liegen, und ein Zeitraum umfasst höchstens 3.660 Tage.';
    await expect.poll(() => refusal('csv-link')).toEqual({ description: said, live: said, focused: true });
    expect(page.url()).toBe(address);
    expect(downloads.length).toBe(before);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("an overview table: saved with the collector's bytes; the database away, a proxy's 413 and 500 said in German, then in English", async () => {
    await page.goto(`${collector.url}/admin/?period=7d#overview`);
    await page.getByTestId('csv-summary').waitFor();
    const sent = await direct('csv-summary');
    const saved = await save('csv-summary');
    expect(saved.name).toMatch(/^pagepulse-summary-\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.csv$/);
    expect(saved.name).toBe(sent.name);
    expect(saved.bytes.equals(sent.bytes)).toBe(true);

    const before = downloads.length;
    const cases: Array<{ answer: Parameters<Route['fulfill']>[0]; says: string }> = [
      {
        answer: {
          status: 503,
          headers: { 'retry-after': '5' },
          contentType: 'application/json',
          body: JSON.stringify({ error: 'database unavailable, try again', code: 'database_unavailable' }),
        },
        says: 'Die Datenbank ist gerade nicht erreichbar. Bitte in 5 s erneut versuchen.',
      },
      {
        answer: { status: 413, contentType: 'text/html', body: '<h1>413 Request Entity Too Large</h1>' },
        says: 'Die Anfrage ist zu groß.',
      },
      {
        answer: {
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'internal error', code: 'internal' }),
        },
        says: 'Interner Fehler des Collectors; Einzelheiten stehen im Protokoll des Servers.',
      },
    ];
    const csv = (url: URL) => url.pathname === '/admin/traffic.csv';
    for (const { answer, says } of cases) {
      await page.route(csv, (route) => route.fulfill(answer));
      await page.getByTestId('csv-browsers').click();
      const said = `CSV-Export fehlgeschlagen: ${says}`;
      await expect.poll(() => refusal('csv-browsers')).toEqual({ description: said, live: said, focused: true });
      await page.unroute(csv);
    }
    expect(downloads.length).toBe(before);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect
      .poll(async () => (await refusal('csv-browsers')).description)
      .toBe('CSV export failed: Internal error of the collector; its log has the details.');
    // and once the collector answers again: saved, the failure gone
    const browsers = await save('csv-browsers');
    expect(browsers.name).toMatch(/^pagepulse-browsers-.*\.csv$/);
    expect((await refusal('csv-browsers')).description).toBeNull();
    await page.getByRole('button', { name: 'Deutsch' }).click();
  });
});
