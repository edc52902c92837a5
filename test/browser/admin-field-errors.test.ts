import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launch } from '../support/browser';
import { removeDir, signInPage, startCollector, type Harness } from '../support/collector';

/**
 * A setting the collector refuses is named at its field: the input marked invalid, described by a
 * message in the admin's language under it, and focused; the form's result names the field too
 * (the collector's answer carries `field`: test/server/admin-field-errors.test.ts).
 */

let browser: Browser;
let collector: Harness;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  collector = await startCollector({ now: Date.now });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
  page = await context.newPage();
  await signInPage(page, collector.url);
});
afterAll(async () => {
  await browser.close();
  await collector.close();
  removeDir(collector.dbPath);
});

/** What a field says of itself: invalid or not, its description's text, whether it has focus. */
const state = (label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((input: HTMLInputElement) => ({
    invalid: input.getAttribute('aria-invalid'),
    description: (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent)
      .join(' '),
    focused: document.activeElement === input,
  }));

describe('settings: the field the collector refused', () => {
  it('a retention the browser let through ("1e3": a number to it, not to the collector): that field marked, described and focused, in German', async () => {
    await page.goto(`${collector.url}/admin/#settings`);
    const field = page.getByLabel('Klicks der Heatmap (Tage)', { exact: true });
    await expect.poll(() => field.inputValue()).toBe('400');
    await field.fill('1e3');
    await page.getByRole('button', { name: 'Speichern' }).nth(1).click();
    const said = 'Fehlgeschlagen: „Klicks der Heatmap (Tage)“ muss eine ganze Zahl von 1 bis 3.650 sein.';
    await expect.poll(() => page.getByTestId('retention-result').textContent()).toBe(said);
    expect(await page.getByTestId('live-region').textContent()).toBe(said);
    await expect
      .poll(() => state('Klicks der Heatmap (Tage)'))
      .toEqual({ invalid: 'true', description: 'Eine ganze Zahl von 1 bis 3.650 angeben.', focused: true });
    // the other fields are not marked
    expect(await state('Seitenaufrufe und Besuche (Tage)')).toEqual({ invalid: null, description: '', focused: false });
    expect(await axeViolations(page)).toEqual([]);
    // corrected: the mark goes as it is typed, and the save goes through
    await field.fill('500');
    expect((await state('Klicks der Heatmap (Tage)')).invalid).toBeNull();
    await page.getByRole('button', { name: 'Speichern' }).nth(1).click();
    await expect.poll(() => page.getByTestId('retention-result').textContent()).toMatch(/^Gespeichert\./);
  });

  it("past the field's max, without the browser's check: the last field, then in English after the switch", async () => {
    await page.locator('#retention-title ~ form').evaluate((form: HTMLFormElement) => (form.noValidate = true));
    const cookies = page.getByLabel('Cookie-Einwilligungen (Tage)', { exact: true });
    await cookies.fill('4000');
    await page.getByRole('button', { name: 'Speichern' }).nth(1).click();
    await expect
      .poll(() => state('Cookie-Einwilligungen (Tage)'))
      .toEqual({ invalid: 'true', description: 'Eine ganze Zahl von 1 bis 3.650 angeben.', focused: true });
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect
      .poll(() => page.getByTestId('retention-result').textContent())
      .toBe('Failed: “Cookie consents (days)” must be a whole number from 1 to 3,650.');
    expect(await state('Cookie consents (days)')).toMatchObject({
      invalid: 'true',
      description: 'Enter a whole number from 1 to 3,650.',
    });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Deutsch' }).click();
  });

  it('an unknown time zone: its field marked, described by the result, and focused', async () => {
    const zone = page.getByLabel('Zeitzone der Website (IANA-Name)', { exact: true });
    await expect.poll(() => zone.inputValue()).not.toBe('');
    await zone.fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Speichern' }).first().click();
    const said = 'Fehlgeschlagen: Diese Zeitzone ist unbekannt. Bitte einen IANA-Namen wie Europe/Berlin angeben.';
    await expect
      .poll(() => state('Zeitzone der Website (IANA-Name)'))
      .toEqual({ invalid: 'true', description: said, focused: true });
  });
});
