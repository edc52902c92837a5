import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { launch } from '../support/browser';
import { removeDir, signInPage, startCollector, type Harness } from '../support/collector';

/**
 * A setting, a token's name, an erasure's or the consent log search's pseudonym or consent ID the
 * collector refuses is named at its field: the input marked invalid, described by a message in the
 * admin's language under it, and focused; the form's result names the field too (the collector's
 * answer carries `field`: test/server/admin-field-errors.test.ts). The mark goes when the value
 * changes.
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
const state = (label: string) => stateOf(page.getByLabel(label, { exact: true }));
const stateOf = (field: Locator) =>
  field.evaluate((input: HTMLInputElement) => ({
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

describe("a token's name the collector refused", () => {
  it("only spaces (the browser's required check lets them through, the collector trims them): the name marked, described and focused; then in English; a right name clears it", async () => {
    await page.goto(`${collector.url}/admin/#settings`);
    const name = page.getByLabel('Name (wofür)', { exact: true });
    const make = page.getByRole('button', { name: 'Token erstellen' });
    await name.fill('   ');
    await make.click();
    const said = 'Fehlgeschlagen: „Name (wofür)“ muss 1 bis 100 Zeichen lang sein, ohne Steuerzeichen.';
    await expect.poll(() => page.getByTestId('tokens-result').textContent()).toBe(said);
    expect(await page.getByTestId('live-region').textContent()).toBe(said);
    const marked = {
      invalid: 'true',
      description: 'Einen Namen mit 1 bis 100 Zeichen angeben (nicht nur Leerzeichen), ohne Steuerzeichen.',
      focused: true,
    };
    await expect.poll(() => state('Name (wofür)')).toEqual(marked);
    expect(await axeViolations(page)).toEqual([]);
    // refused again: marked and focused again (focus elsewhere meanwhile)
    await make.focus();
    await make.click();
    await expect.poll(() => state('Name (wofür)')).toEqual(marked);

    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect
      .poll(() => page.getByTestId('tokens-result').textContent())
      .toBe('Failed: “Name (what for)” must be 1 to 100 characters, without control characters.');
    expect(await state('Name (what for)')).toMatchObject({
      invalid: 'true',
      description: 'Enter a name of 1 to 100 characters (not only spaces), without control characters.',
    });
    await page.getByRole('button', { name: 'Deutsch' }).click();

    // typed into: the mark goes; the right name is made, and the field stays unmarked
    await name.fill('Grafana');
    expect(await state('Name (wofür)')).toEqual({ invalid: null, description: '', focused: true });
    await make.click();
    await expect
      .poll(() => page.getByTestId('tokens-result').textContent())
      .toBe('Token „Grafana“ erstellt. Es steht unter dem Formular und wird nur dieses eine Mal angezeigt.');
    expect((await state('Name (wofür)')).invalid).toBeNull();
  });

  it('a refusal, then a right name without typing in between (the field refilled by script): the successful save clears the mark', async () => {
    const name = page.getByLabel('Name (wofür)', { exact: true });
    const make = page.getByRole('button', { name: 'Token erstellen' });
    await name.fill(' ');
    await make.click();
    await expect.poll(async () => (await state('Name (wofür)')).invalid).toBe('true');
    // the same value refused again, then a submit the collector accepts (a name sent in its place)
    await page.route('**/admin/api/tokens', (route) =>
      route.request().method() === 'POST' ? route.continue({ postData: 'name=Matomo' }) : route.continue(),
    );
    await make.click();
    await expect.poll(() => page.getByTestId('tokens-result').textContent()).toMatch(/^Token „Matomo“ erstellt\./);
    expect(await state('Name (wofür)')).toMatchObject({ invalid: null, description: '' });
    await page.unroute('**/admin/api/tokens');
  });
});

describe('an erasure the collector refused', () => {
  const eraseForm = () => page.locator('#erase-title + p + form');
  const input = () => eraseForm().locator('input');
  /** Submits the erase form, accepting its confirm dialog. */
  const erase = async () => {
    const confirmed = page.waitForEvent('dialog').then((dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Endgültig löschen' }).click();
    await confirmed;
  };

  it("a wrong pseudonym, then a wrong consent ID (past the fields' patterns, as an older browser sends them): each marked, described and focused; changing the value or the kind clears it", async () => {
    await page.goto(`${collector.url}/admin/#log`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Einwilligungsprotokoll');
    // the browser's pattern is the collector's: without its check, the collector's answer is what is said
    await eraseForm().evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await input().fill('anna');
    await erase();
    const said = 'Fehlgeschlagen: „Besucher-Pseudonym“ muss genau 12 Zeichen aus 0–9 und a–f haben.';
    await expect.poll(() => page.getByTestId('erase-result').textContent()).toBe(said);
    expect(await page.getByTestId('live-region').textContent()).toBe(said);
    await expect
      .poll(() => stateOf(input()))
      .toEqual({
        invalid: 'true',
        description: 'Genau 12 Zeichen aus 0–9 und a–f angeben, z. B. 3f9a0c1b2d4e.',
        focused: true,
      });
    expect(await axeViolations(page)).toEqual([]);
    // typed into: the mark goes
    await input().fill('ann');
    expect(await stateOf(input())).toEqual({ invalid: null, description: '', focused: true });

    await erase();
    await expect.poll(async () => (await stateOf(input())).invalid).toBe('true');
    // another kind of value chosen: the mark goes with it
    await eraseForm().getByLabel('Löschen nach').selectOption('consent');
    expect(await stateOf(input())).toMatchObject({ invalid: null, description: '' });

    await input().fill('kurz');
    await erase();
    await expect
      .poll(() => page.getByTestId('erase-result').textContent())
      .toBe('Fehlgeschlagen: „Einwilligungs-ID“ muss 16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ haben.');
    await expect
      .poll(() => stateOf(input()))
      .toEqual({
        invalid: 'true',
        description: '16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ angeben.',
        focused: true,
      });
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect
      .poll(() => page.getByTestId('erase-result').textContent())
      .toBe('Failed: “Consent ID” must be 16 to 64 characters of letters, digits, - and _.');
    expect(await stateOf(input())).toMatchObject({
      invalid: 'true',
      description: 'Enter 16 to 64 characters of letters, digits, - and _.',
    });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Deutsch' }).click();

    // corrected: an ID of nobody goes through (nothing found, said as such) and the field is unmarked
    await input().fill('A'.repeat(16));
    expect((await stateOf(input())).invalid).toBeNull();
    await erase();
    await expect.poll(() => page.getByTestId('erase-result').textContent()).toMatch(/^Nichts gefunden/);
    expect(await stateOf(input())).toMatchObject({ invalid: null, description: '' });
  });
});

describe("the consent log's search the collector refused", () => {
  const searchForm = () => page.getByRole('search');
  const pseudonym = () => searchForm().getByLabel('Besucher-Pseudonym', { exact: true });
  const consentId = () => searchForm().getByLabel('Einwilligungs-ID', { exact: true });
  /** The log's own failure (its Status alert), the search's result. */
  const failure = () => page.locator('section[aria-labelledby="log-title"] [role="alert"]');
  const search = () => searchForm().getByRole('button', { name: 'Suchen' }).click();
  const unmarked = { invalid: null, description: '' };

  it("a wrong pseudonym, then a wrong consent ID (past the fields' patterns): each marked, described and focused, the log's failure naming it; then in English; typing, a right search and the reset clear it", async () => {
    await page.goto(`${collector.url}/admin/#log`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Einwilligungsprotokoll');
    // the browser's patterns are the collector's: without their check, the collector's answer is what is said
    await searchForm().evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await pseudonym().fill('anna');
    await search();
    await expect
      .poll(() => failure().textContent())
      .toBe('Laden fehlgeschlagen: „Besucher-Pseudonym“ muss genau 12 Zeichen aus 0–9 und a–f haben.');
    await expect
      .poll(() => stateOf(pseudonym()))
      .toEqual({ invalid: 'true', description: 'Genau 12 Zeichen aus 0–9 und a–f angeben, z. B. 3f9a0c1b2d4e.', focused: true });
    expect(await stateOf(consentId())).toMatchObject(unmarked);
    expect(await axeViolations(page)).toEqual([]);
    // typed into: the mark goes (the other field's typing would not)
    await consentId().fill('x');
    expect((await stateOf(pseudonym())).invalid).toBe('true');
    await consentId().fill('');
    await pseudonym().fill('ann');
    expect(await stateOf(pseudonym())).toEqual({ ...unmarked, focused: true });
    // the same wrong search twice: marked and focused again (focus elsewhere meanwhile)
    await search();
    await expect.poll(async () => (await stateOf(pseudonym())).invalid).toBe('true');
    await searchForm().getByRole('button', { name: 'Suchen' }).focus();
    await search();
    await expect.poll(async () => (await stateOf(pseudonym())).focused).toBe(true);

    // a right pseudonym beside a wrong consent ID: the ID marked, the pseudonym no longer
    await pseudonym().fill('0123456789ab');
    await consentId().fill('kurz');
    await search();
    await expect
      .poll(() => failure().textContent())
      .toBe('Laden fehlgeschlagen: „Einwilligungs-ID“ muss 16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ haben.');
    await expect
      .poll(() => stateOf(consentId()))
      .toEqual({ invalid: 'true', description: '16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ angeben.', focused: true });
    expect(await stateOf(pseudonym())).toMatchObject(unmarked);
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect
      .poll(() => failure().textContent())
      .toBe('Loading failed: “Consent ID” must be 16 to 64 characters of letters, digits, - and _.');
    expect(await stateOf(searchForm().getByLabel('Consent ID', { exact: true }))).toMatchObject({
      invalid: 'true',
      description: 'Enter 16 to 64 characters of letters, digits, - and _.',
    });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Deutsch' }).click();

    // corrected: an ID of nobody is searched (no records, no failure) and the field is unmarked
    await consentId().fill('A'.repeat(16));
    expect((await stateOf(consentId())).invalid).toBeNull();
    await search();
    await expect.poll(() => failure().count()).toBe(0);
    expect(await stateOf(consentId())).toMatchObject(unmarked);

    // refused, then the reset (every record again): the mark goes with the value
    await pseudonym().fill('anna');
    await search();
    await expect.poll(async () => (await stateOf(pseudonym())).invalid).toBe('true');
    await searchForm().getByRole('button', { name: 'Zurücksetzen' }).click();
    await expect.poll(() => failure().count()).toBe(0);
    expect(await stateOf(pseudonym())).toMatchObject(unmarked);
    expect(await pseudonym().inputValue()).toBe('');
  });

  it('a refusal, then a search the collector accepts without the pseudonym typed into (the query changed on its way): the accepted search clears the mark', async () => {
    await pseudonym().fill('anna');
    await search();
    await expect.poll(async () => (await stateOf(pseudonym())).invalid).toBe('true');
    // the same value sent again, the collector asked for a right one in its place
    await page.route('**/admin/api/consents?*', (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('visitor', '0123456789ab');
      return route.continue({ url: url.toString() });
    });
    // the other field typed into (the pseudonym's mark stays), so the search is asked for again
    await consentId().fill('A'.repeat(16));
    expect((await stateOf(pseudonym())).invalid).toBe('true');
    await search();
    await expect.poll(() => failure().count()).toBe(0);
    expect(await stateOf(pseudonym())).toMatchObject(unmarked);
    await page.unroute('**/admin/api/consents?*');
  });
});
