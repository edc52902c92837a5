import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../collector/admin/i18n';
import { axeViolations } from '../support/axe';
import { launch } from '../support/browser';
import { ADMIN_PASSWORD, removeDir, signInPage, startCollector, type Harness } from '../support/collector';

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

/** Takes the input's pattern away (until its kind changes): what an older browser or a script sends, for the collector to refuse. */
const withoutPattern = (input: Locator) => input.evaluate((one: HTMLInputElement) => one.removeAttribute('pattern'));

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

  it("past the field's max (the form's own check, as the collector's): the last field, then in English after the switch", async () => {
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
    // the field's pattern is the collector's: without it (an older browser, a script), the collector's answer is what is said
    await withoutPattern(input());
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
    await withoutPattern(input());

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
    // the fields' patterns are the collector's: without them (an older browser, a script), the collector's answer is what is said
    await withoutPattern(pseudonym());
    await withoutPattern(consentId());
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

  it("the CSV export while the log shows the collector's refusal: not offered (it would export the refused search, which the collector refuses too); back with the next accepted search, carrying it", async () => {
    await searchForm().getByRole('button', { name: 'Zurücksetzen' }).click();
    await expect.poll(() => failure().count()).toBe(0);
    const csv = page.getByTestId('csv-link');
    /** The export's search (its link's visitor and consent), or null while no link is offered. */
    const exported = async () => {
      if ((await csv.count()) === 0) return null;
      const href = new URL((await csv.getAttribute('href'))!, collector.url);
      return { visitor: href.searchParams.get('visitor'), consent: href.searchParams.get('consent') };
    };
    // an accepted search: the export carries it
    await pseudonym().fill('0123456789ab');
    await search();
    await expect.poll(exported).toEqual({ visitor: '0123456789ab', consent: null });
    // refused by the collector: the log says so, and no export of that search (nor of the one before) is offered
    await withoutPattern(pseudonym());
    await pseudonym().fill('anna');
    await search();
    await expect
      .poll(() => failure().textContent())
      .toBe('Laden fehlgeschlagen: „Besucher-Pseudonym“ muss genau 12 Zeichen aus 0–9 und a–f haben.');
    expect(await exported()).toBeNull();
    expect(await page.locator('a[href*="visitor=anna"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    // typed into: the field's mark goes, but the log still shows the refusal, so still no export
    await pseudonym().fill('ann');
    expect((await stateOf(pseudonym())).invalid).toBeNull();
    expect(await failure().count()).toBe(1);
    expect(await exported()).toBeNull();
    // corrected and searched: the log and the export show the same search
    await pseudonym().fill('fedcba987654');
    await search();
    await expect.poll(() => failure().count()).toBe(0);
    await expect.poll(exported).toEqual({ visitor: 'fedcba987654', consent: null });
    // refused, then the reset: every record of the period, and their export
    await pseudonym().fill('anna');
    await search();
    await expect.poll(exported).toBeNull();
    await searchForm().getByRole('button', { name: 'Zurücksetzen' }).click();
    await expect.poll(exported).toEqual({ visitor: null, consent: null });
  });
});

/**
 * The forms' own checks (required, min, max, step, pattern, type): each form is `noValidate`, so no
 * bubble of the browser's speaks (in its language, not the admin's); a field at fault is marked as a
 * refusal of the collector's is, in the admin's language, and nothing is sent. The browser's locale
 * is the other language each time.
 */
const LANGS = [
  {
    admin: 'de',
    locale: 'en-US',
    save: 'Speichern',
    clicks: 'Klicks der Heatmap (Tage)',
    cookies: 'Cookie-Einwilligungen (Tage)',
    days: (label: string) => `Fehlgeschlagen: „${label}“ muss eine ganze Zahl von 1 bis 3.650 sein.`,
    daysExpected: 'Eine ganze Zahl von 1 bis 3.650 angeben.',
    /** How the texts name a range of days (the retention's hint and messages). */
    range: (min: string, max: string) => `${min} bis ${max}`,
    tokenName: 'Name (wofür)',
    make: 'Token erstellen',
    tokenSaid: 'Fehlgeschlagen: „Name (wofür)“ muss 1 bis 100 Zeichen lang sein, ohne Steuerzeichen.',
    tokenExpected: 'Einen Namen mit 1 bis 100 Zeichen angeben (nicht nur Leerzeichen), ohne Steuerzeichen.',
    erase: 'Endgültig löschen',
    pseudonym: 'Besucher-Pseudonym',
    eraseSaid: 'Fehlgeschlagen: „Besucher-Pseudonym“ muss genau 12 Zeichen aus 0–9 und a–f haben.',
    pseudonymExpected: 'Genau 12 Zeichen aus 0–9 und a–f angeben, z. B. 3f9a0c1b2d4e.',
    search: 'Suchen',
    consentId: 'Einwilligungs-ID',
    // nothing was asked (the form's own check), so nothing failed to load: the search was not made
    searchSaid: 'Nicht gesucht: „Einwilligungs-ID“ muss 16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ haben.',
    consentIdExpected: '16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ angeben.',
    from: 'Von',
    to: 'Bis',
    apply: 'Anwenden',
    fromExpected: /^Einen Tag bis zum \d\d\.\d\d\.\d{4} angeben\.$/,
    toExpected: /^Einen Tag vom 10\.05\.2025 bis zum \d\d\.\d\d\.\d{4} angeben\.$/,
    daySaid: (label: string) => `Nicht angewendet: „${label}“ ist kein gültiger Tag des Zeitraums.`,
  },
  {
    admin: 'en',
    locale: 'de-DE',
    save: 'Save',
    clicks: 'Heatmap clicks (days)',
    cookies: 'Cookie consents (days)',
    days: (label: string) => `Failed: “${label}” must be a whole number from 1 to 3,650.`,
    daysExpected: 'Enter a whole number from 1 to 3,650.',
    range: (min: string, max: string) => `${min} to ${max}`,
    tokenName: 'Name (what for)',
    make: 'Create token',
    tokenSaid: 'Failed: “Name (what for)” must be 1 to 100 characters, without control characters.',
    tokenExpected: 'Enter a name of 1 to 100 characters (not only spaces), without control characters.',
    erase: 'Erase for good',
    pseudonym: 'Visitor pseudonym',
    eraseSaid: 'Failed: “Visitor pseudonym” must be exactly 12 characters of 0–9 and a–f.',
    pseudonymExpected: 'Enter exactly 12 characters of 0–9 and a–f, such as 3f9a0c1b2d4e.',
    search: 'Search',
    consentId: 'Consent ID',
    searchSaid: 'Not searched: “Consent ID” must be 16 to 64 characters of letters, digits, - and _.',
    consentIdExpected: 'Enter 16 to 64 characters of letters, digits, - and _.',
    from: 'From',
    to: 'To',
    apply: 'Apply',
    fromExpected: /^Enter a day up to \d\d\/\d\d\/\d{4}\.$/,
    toExpected: /^Enter a day from 05\/10\/2025 to \d\d\/\d\d\/\d{4}\.$/,
    daySaid: (label: string) => `Not applied: “${label}” is not a valid day of the range.`,
  },
] as const;

describe.each(LANGS)("the forms' own checks: the $admin admin in a $locale browser", (lang) => {
  let own: BrowserContext;
  let tab: Page;
  /** Requests to the admin API since the last `sent.length = 0`; dialogs (the erasure's confirm) likewise. */
  const sent: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    own = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: lang.locale });
    tab = await own.newPage();
    await tab.goto(`${collector.url}/admin/login`);
    await tab.fill('#password', ADMIN_PASSWORD);
    await Promise.all([tab.waitForURL(`${collector.url}/admin/`), tab.locator('button[type="submit"]').click()]);
    // the admin's language, the browser's other one
    const other = lang.admin === 'de' ? 'Auf Deutsch umschalten' : 'Switch to English';
    await tab.getByRole('button', { name: other }).click();
    await tab.waitForFunction((admin) => document.documentElement.lang === admin, lang.admin);
    tab.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/admin/api')) sent.push(`${request.method()} ${request.url()}`);
    });
    // every text the live region takes (a later load's, such as the previous test's search, may replace
    // a refusal's before it is read): window.__said
    await tab.evaluate(() => {
      const region = document.querySelector('[data-testid="live-region"]')!;
      const said: string[] = [];
      (window as unknown as { __said: string[] }).__said = said;
      new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      // none is expected: a confirm here fails the test (`dialogs`), and is not left open
      dialog.dismiss().catch((error: unknown) => dialogs.push(String(error)));
    });
  });
  afterAll(() => own.close());

  const field = (label: string, scope: Page | Locator = tab) => scope.getByLabel(label, { exact: true });
  /** What the live region has said since the sign-in, in order. */
  const said = () => tab.evaluate(() => (window as unknown as { __said: string[] }).__said);
  /** Submits with `button`; then the field's state once marked, with nothing asked of the collector and no bubble (noValidate). */
  const refusedBy = async (button: Locator, input: Locator) => {
    sent.length = 0;
    dialogs.length = 0;
    await button.click();
    await expect.poll(async () => (await stateOf(input)).invalid).toBe('true');
    expect(await input.evaluate((one: HTMLInputElement) => one.form?.noValidate)).toBe(true);
    expect(sent).toEqual([]);
    expect(dialogs).toEqual([]);
    return stateOf(input);
  };

  it('retention: a number past max, an empty field, a fraction: marked, described, focused and named, nothing sent', async () => {
    await tab.goto(`${collector.url}/admin/#settings`);
    const clicks = field(lang.clicks);
    await expect.poll(() => clicks.inputValue()).not.toBe('');
    // the values in force, restored at the end (a lower one would ask to confirm)
    const before = { clicks: await clicks.inputValue(), cookies: await field(lang.cookies).inputValue() };
    const save = tab.getByRole('button', { name: lang.save }).nth(1);
    // the form's hint names the range its inputs check (their min and max), as their messages do
    const ranges = await tab
      .locator('section[aria-labelledby="retention-title"] input')
      .evaluateAll((inputs: HTMLInputElement[]) => inputs.map((input) => [input.min, input.max]));
    expect(ranges).toHaveLength(4);
    expect(new Set(ranges.map((range) => range.join()))).toHaveProperty('size', 1);
    const [min, max] = ranges[0].map((attribute) => new Intl.NumberFormat(lang.admin).format(Number(attribute)));
    expect(await tab.locator('section[aria-labelledby="retention-title"] .hint').textContent()).toContain(lang.range(min, max));
    expect(lang.daysExpected).toContain(lang.range(min, max));
    await clicks.fill('4000');
    expect(await refusedBy(save, clicks)).toEqual({ invalid: 'true', description: lang.daysExpected, focused: true });
    expect(await tab.getByTestId('retention-result').textContent()).toBe(lang.days(lang.clicks));
    await expect.poll(said).toContain(lang.days(lang.clicks));
    expect(await axeViolations(tab)).toEqual([]);
    // below min too
    await clicks.fill('0');
    expect((await stateOf(clicks)).invalid).toBeNull();
    expect(await refusedBy(save, clicks)).toEqual({ invalid: 'true', description: lang.daysExpected, focused: true });

    // corrected; the last field emptied: that one (required)
    await clicks.fill(before.clicks);
    const cookies = field(lang.cookies);
    await cookies.fill('');
    expect(await refusedBy(save, cookies)).toEqual({ invalid: 'true', description: lang.daysExpected, focused: true });
    expect(await tab.getByTestId('retention-result').textContent()).toBe(lang.days(lang.cookies));
    expect((await stateOf(clicks)).invalid).toBeNull();
    // not a whole number (step)
    await cookies.fill('2.5');
    expect(await refusedBy(save, cookies)).toEqual({ invalid: 'true', description: lang.daysExpected, focused: true });
    // right again: sent, and saved (the collector's answer in the admin's language)
    await cookies.fill(before.cookies);
    sent.length = 0;
    await save.click();
    await expect
      .poll(() => tab.getByTestId('retention-result').textContent())
      .toMatch(lang.admin === 'de' ? /^Gespeichert\./ : /^Saved\./);
    expect(sent).toEqual([`POST ${collector.url}/admin/api/settings`]);
    expect((await stateOf(cookies)).invalid).toBeNull();
  });

  it("retention: the hint's range is the one it is given (the inputs' min and max), not a number of its own", () => {
    const hint = MESSAGES[lang.admin].retentionHint;
    expect(typeof hint).toBe('function');
    expect(hint({ min: 7, max: 1234 })).toContain(lang.range('7', new Intl.NumberFormat(lang.admin).format(1234)));
    expect(hint({ min: 7, max: 1234 })).not.toMatch(/3\D?650/);
  });

  it("a token's empty name (required): marked, described, focused and named, nothing sent", async () => {
    const name = field(lang.tokenName);
    await name.fill('');
    expect(await refusedBy(tab.getByRole('button', { name: lang.make }), name)).toEqual({
      invalid: 'true',
      description: lang.tokenExpected,
      focused: true,
    });
    expect(await tab.getByTestId('tokens-result').textContent()).toBe(lang.tokenSaid);
    expect(await axeViolations(tab)).toEqual([]);
  });

  it("the erasure's and the search's patterns: marked, described, focused and named, no confirm, nothing sent", async () => {
    await tab.goto(`${collector.url}/admin/#log`);
    const eraseForm = tab.locator('#erase-title + p + form');
    const value = eraseForm.locator('input');
    await value.fill('anna');
    expect(await refusedBy(tab.getByRole('button', { name: lang.erase }), value)).toEqual({
      invalid: 'true',
      description: lang.pseudonymExpected,
      focused: true,
    });
    expect(await tab.getByTestId('erase-result').textContent()).toBe(lang.eraseSaid);

    const searchForm = tab.getByRole('search');
    const consentId = field(lang.consentId, searchForm);
    await consentId.fill('kurz');
    expect(await refusedBy(searchForm.getByRole('button', { name: lang.search }), consentId)).toEqual({
      invalid: 'true',
      description: lang.consentIdExpected,
      focused: true,
    });
    const failure = tab.locator('section[aria-labelledby="log-title"] [role="alert"]');
    expect(await failure.textContent()).toBe(lang.searchSaid);
    expect((await stateOf(field(lang.pseudonym, searchForm))).invalid).toBeNull();
    // while the log shows the refusal, no export is offered (not the search before it either)
    expect(await tab.getByTestId('csv-link').count()).toBe(0);
    expect(await axeViolations(tab)).toEqual([]);
    // typed into: the mark and the log's alert go, and the export of the shown records is back; a right search is sent
    await consentId.fill('A'.repeat(16));
    expect((await stateOf(consentId)).invalid).toBeNull();
    expect(await failure.count()).toBe(0);
    expect(await tab.getByTestId('csv-link').getAttribute('href')).not.toContain('consent=');
    sent.length = 0;
    await searchForm.getByRole('button', { name: lang.search }).click();
    await expect.poll(() => sent.some((request) => request.includes('consent=AAAAAAAAAAAAAAAA'))).toBe(true);
  });

  it("a custom range's missing day, then a day before its from: marked, described by its own min and max, focused and said, not applied", async () => {
    await tab.getByTestId('period').selectOption('custom');
    const from = field(lang.from);
    expect(await refusedBy(tab.getByRole('button', { name: lang.apply }), from)).toMatchObject({
      invalid: 'true',
      focused: true,
    });
    expect((await stateOf(from)).description).toMatch(lang.fromExpected);
    await expect.poll(said).toContain(lang.daySaid(lang.from));
    expect(await axeViolations(tab)).toEqual([]);
    await from.fill('2025-05-10');
    const to = field(lang.to);
    await to.fill('2025-05-01');
    expect(await refusedBy(tab.getByRole('button', { name: lang.apply }), to)).toMatchObject({ invalid: 'true', focused: true });
    expect((await stateOf(to)).description).toMatch(lang.toExpected);
    await expect.poll(said).toContain(lang.daySaid(lang.to));
    expect(new URL(tab.url()).hash).not.toContain('2025-05-01');
  });
});
