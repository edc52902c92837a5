import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { collectPageErrors, launch } from '../support/browser';
import { ADMIN_PASSWORD, removeDir, signInPage, signIn, startCollector, type Harness } from '../support/collector';
import { serveBundleUnderTest } from '../support/demo';

/** Set to a folder to save a screenshot of each admin view at both widths (docs/collector.md "Admin area"). */
const SHOTS = process.env.PAGEPULSE_ADMIN_SHOTS;
const WIDTHS = { desktop: { width: 1280, height: 900 }, mobile: { width: 390, height: 844 } };

let browser: Browser;
let collector: Harness;
let admin: BrowserContext;
let page: Page;
const cspViolations: string[] = [];
let pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launch();
  // photos are larger than the component's 350 x 50 click limit: this collector accepts them
  collector = await startCollector({
    now: Date.now,
    settings: { daemonrefresh: 0.5, heatmap_max_valid_width: 2000, heatmap_max_valid_height: 2000 },
  });
});
afterAll(async () => {
  await browser.close();
  await collector.close();
  removeDir(collector.dbPath);
});

/** A visitor of the demo site who answers the consent banner with `button` (after ticking `tick`). */
async function demoVisitor(button: string, tick: string[] = []): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: WIDTHS.desktop });
  await serveBundleUnderTest(context);
  const visitorPage = await context.newPage();
  await visitorPage.goto(`${collector.url}/`);
  const banner = visitorPage.locator('pagepulse-consent');
  await banner.locator('.banner').waitFor();
  for (const id of tick) await banner.locator(id).check();
  const choice = banner.getByRole('button', { name: button }).click();
  // a decline takes Präferenzen back: the page reloads; a choice that only adds is released in place
  if (button === 'Ablehnen') await Promise.all([visitorPage.waitForEvent('load'), choice]);
  else {
    await choice;
    await expect.poll(() => visitorPage.evaluate(() => document.cookie)).toContain('cookieconsent_status=allow');
  }
  return { context, page: visitorPage };
}

/** The demo's real data: three visitors choose differently, two browse and click, one sends the contact form's consent. */
async function driveDemo(): Promise<void> {
  const anna = await demoVisitor('Alle akzeptieren');
  await expect.poll(() => anna.page.locator('#jes_mod [data-bind="visitors"]').textContent(), { timeout: 10_000 }).not.toBe('0');
  for (const selector of ['.uk-navbar-nav a >> nth=0', '.uk-navbar-nav a >> nth=1', '.uk-navbar-nav a >> nth=0']) {
    await anna.page.locator(selector).click();
  }
  await anna.page.fill('#jform_name', 'Anna Weber');
  await anna.page.fill('#jform_email', 'anna@example.org');
  await anna.page.locator('#jform_privacy').check();
  await anna.page.goto(`${collector.url}/kontakt/datenschutz.html`);
  await anna.page.goto(`${collector.url}/`);

  const ben = await demoVisitor('Ablehnen');
  await ben.context.close();
  const carla = await demoVisitor('Auswahl speichern', ['input#pp-cat-3']);
  await expect.poll(() => carla.page.locator('#jes_mod [data-bind="visitors"]').textContent(), { timeout: 10_000 }).toBe('2');
  await carla.page.locator('.uk-navbar-nav a >> nth=2').click();
  // Anna and Carla stay on the site (online now); the clicks and the form consent have arrived
  await expect
    .poll(
      async () =>
        (await (await fetch(`${collector.url}/api/clicks?page=${encodeURIComponent(`${collector.url}/`)}`)).json()).clicks.length,
      { timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(3);
}

async function shoot(name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

async function openView(hash: string, heading: string): Promise<void> {
  await page.goto(`${collector.url}/admin/#${hash}`);
  await expect.poll(() => page.locator('h1').textContent()).toBe(heading);
  await expect.poll(() => page.locator('[role="status"]', { hasText: 'Lädt' }).count()).toBe(0);
}

describe('admin area in Chromium, with data made by driving the demo site', () => {
  it('drives the demo site: three consent choices, page views, clicks and a form consent', async () => {
    await driveDemo();
  });

  it('sends the sign-in page to a visitor without a session; a wrong password opens nothing', async () => {
    // a German browser: the sign-in page speaks its language (Accept-Language), one language only
    admin = await browser.newContext({ viewport: WIDTHS.desktop, locale: 'de-DE' });
    page = await admin.newPage();
    pageErrors = collectPageErrors(page);
    page.on('console', (m) => m.text().includes('Content Security Policy') && cspViolations.push(m.text()));
    await page.goto(`${collector.url}/admin/`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await axeViolations(page)).toEqual([]);
    await shoot('login');
    await page.fill('#password', 'nicht-das-passwort');
    await page.getByRole('button', { name: /Anmelden/ }).click();
    await expect.poll(() => page.locator('[role="alert"]').textContent()).toBe('Das Passwort ist falsch.');
    // the field names its error (read with it when focus lands there) and is marked invalid
    const field = page.locator('#password');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await field.getAttribute('aria-describedby')}`).textContent()).toBe('Das Passwort ist falsch.');
    expect(await axeViolations(page)).toEqual([]);
    expect((await admin.cookies()).some((c) => c.name === 'pagepulse_admin')).toBe(false);
    expect((await page.request.get(`${collector.url}/admin/api/consents`)).status()).toBe(401);
  });

  it('signs in with the right password (HttpOnly, SameSite=Strict session) and shows visitors online, page views and top pages', async () => {
    await page.fill('#password', ADMIN_PASSWORD);
    await Promise.all([page.waitForURL(`${collector.url}/admin/`), page.getByRole('button', { name: /Anmelden/ }).click()]);
    const cookie = (await admin.cookies()).find((c) => c.name === 'pagepulse_admin');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });
    await openView('overview', 'Übersicht');
    // the one live region the views' results are read out from: in the page from the start (a region
    // added with its text is not read by every screen reader), empty until an action is done
    const live = page.getByTestId('live-region');
    expect(await live.getAttribute('role')).toBe('status');
    expect(await live.textContent()).toBe('');
    await expect.poll(() => page.getByTestId('online-count').textContent(), { timeout: 10_000 }).toMatch(/^2 /);
    const pages = await page.getByTestId('top-pages').locator('tbody tr').allTextContents();
    // the page by its path, the whole address on hover
    expect(pages[0]).toMatch(/^\/\d/);
    expect(await page.getByTestId('top-pages').locator('tbody td.url').first().getAttribute('title')).toBe(`${collector.url}/`);
    expect(pages.some((row) => row.includes('/kontakt/datenschutz.html'))).toBe(true);
    expect(await page.locator('.chart rect.bar').count()).toBe(30);
    // today's bar is the last one and not empty
    expect(Number(await page.locator('.chart rect.bar').last().getAttribute('height'))).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('overview');
  });

  it('lists the most clicked selectors, and the heatmap link opens the page with the overlay drawn', async () => {
    await openView('clicks', 'Klicks');
    // Anna clicked the first menu link twice and the second once (and the form's fields); Carla the third
    // (each row ends with this period's count, then the previous period's: none)
    const rows = await page.locator('table tbody tr').allTextContents();
    // the original's selectors (the default) keep state classes: the demo's header is `is-sticky` once
    // scrolled, so a link can be stored under two selectors, as the component's own client stores it;
    // without that class the three links add up to Anna's and Carla's clicks
    const counts = new Map<string, number>();
    for (const row of rows.filter((r) => r.includes('uk-navbar-nav'))) {
      const [, selector, now, before] = /^(.*>a)(\d)(\d)$/.exec(row) ?? [];
      expect(before).toBe('0');
      const key = selector!.replace('.is-sticky', '');
      counts.set(key, (counts.get(key) ?? 0) + Number(now));
    }
    expect([...counts.entries()].map(([key, n]) => `${key.replace(/^.*>li/, 'li')} ${n}`).sort()).toEqual([
      'li:nth-child(1)>a 2',
      'li:nth-child(2)>a 1',
      'li:nth-child(3)>a 1',
    ]);
    // each row names its element by the selector's last step first (the link), the whole selector under it
    const menuRows = page.locator('table tbody tr', { hasText: 'uk-navbar-nav' });
    expect(await menuRows.count()).toBeGreaterThanOrEqual(3);
    for (const row of await menuRows.all()) {
      const step = row.locator('.selector strong');
      expect(await step.textContent()).toBe('a');
      expect(await step.getAttribute('title')).toBe(await row.locator('.selector code').textContent());
    }
    expect(await axeViolations(page)).toEqual([]);
    await shoot('clicks');
    const link = page.getByTestId('heatmap-link').first();
    // the overlay's panel speaks the admin's language
    expect(await link.getAttribute('href')).toBe(`${collector.url}/#pagepulse-heatmap=de`);
    const context = await browser.newContext({ viewport: WIDTHS.desktop });
    await serveBundleUnderTest(context);
    const target = await context.newPage();
    await target.goto((await link.getAttribute('href'))!);
    await expect
      .poll(() => target.locator('pagepulse-heatmap').getAttribute('data-dots'), { timeout: 10_000 })
      .toBe(String(rows.filter((row) => !row.includes('.is-sticky')).length)); // a scrolled header's selectors match once scrolled
    expect(
      await target
        .locator('pagepulse-heatmap')
        .getByRole('region')
        .getByRole('button', { name: /^Heatmap: \d+ Punkte/ })
        .count(),
    ).toBe(1);
    if (SHOTS) await target.screenshot({ path: `${SHOTS}/heatmap-page-desktop.png` });
    await context.close();
  });

  it('shows the consent shares per day: 3 choices, Statistiken 67 %, Marketing 33 %', async () => {
    await openView('consentStats', 'Einwilligungen');
    const cells = await page.getByTestId('consent-stats').locator('tbody tr').first().locator('td').allTextContents();
    // today (the collector's zone is UTC) as a German date
    expect(cells[0]).toBe(
      new Date().toLocaleDateString('de', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }),
    );
    expect(cells.slice(1).map((c) => c.replace(/\s/g, ' '))).toEqual(['3', '100 %', '67 %', '67 %', '33 %']);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('consent-stats');
  });

  it('shows the consent log with consent IDs, filters by pseudonym and by consent ID, exports it as CSV and erases a visitor', async () => {
    // a choice logged with the consent ID the bundle sends (protocol section 5)
    const consentId = 'Wq3mZ0-Lk7vR_t2xPn4yBd';
    const logged = await fetch(`${collector.url}/index.php?option=com_gdpr&task=user.processGenericCookieCategories`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `gdpr_generic_cookie_consent=1&consent_id=${consentId}`,
    });
    expect(logged.status).toBe(200);
    await openView('log', 'Einwilligungsprotokoll');
    const log = page.getByTestId('consent-log');
    await expect.poll(() => log.textContent()).toContain('anna@example.org');
    expect(await log.locator('tbody tr').count()).toBeGreaterThanOrEqual(7);
    expect(await axeViolations(page)).toEqual([]);
    await shoot('consent-log');
    // filtered by its consent ID: that record only
    await log.locator('button.consent-id', { hasText: consentId }).click();
    await expect.poll(() => log.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Zurücksetzen' }).click();
    await expect.poll(() => log.locator('tbody tr').count()).toBeGreaterThanOrEqual(7);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-link').click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    // after the byte order mark, which Excel needs to read UTF-8 (readFileSync keeps it)
    expect(csv.split('\r\n')[0]).toBe(
      '\ufefftime,pseudonym,consent_id,kind,category,choice,user_agent,url,form,fields,deleted_at',
    );
    expect(csv).toMatch(/,form,,given,"?Mozilla[^\r\n]*kontaktformular,[^\r\n]*email: anna@example\.org/);

    // Anna's pseudonym: the visitor of the form consent; filter by clicking it
    const formRow = log.locator('tbody tr', { hasText: 'anna@example.org' });
    const pseudonym = (await formRow.locator('button.mono').textContent())!;
    await formRow.locator('button.mono').click();
    await expect
      .poll(async () => (await log.locator('tbody tr').allTextContents()).every((row) => row.includes(pseudonym)))
      .toBe(true);

    await page.getByRole('button', { name: 'Zurücksetzen' }).click();
    // the reset is read out with what it then shows (the region's text follows the new records): every visitor's again
    const readOut = async () => [await page.getByTestId('live-region').textContent(), await log.locator('tbody tr').count()];
    await expect
      .poll(async () => {
        const [said, shown] = await readOut();
        return Number(shown) >= 7 && said === `${shown} Einträge`;
      })
      .toBe(true);

    // a wrong pseudonym past the field's pattern (as an older browser sends it): the collector's
    // refusal in German, naming the field, beside the form and in the live region (the field's own
    // marks: admin-field-errors.test.ts)
    const eraseForm = page.locator('#erase-title + p + form');
    await eraseForm.locator('input').evaluate((input: HTMLInputElement) => input.removeAttribute('pattern'));
    await eraseForm.locator('input').fill('anna');
    const refused = page.waitForEvent('dialog').then((dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Endgültig löschen' }).click();
    await refused;
    const wrongInput = 'Fehlgeschlagen: „Besucher-Pseudonym“ muss genau 12 Zeichen aus 0–9 und a–f haben.';
    await expect.poll(() => page.getByTestId('erase-result').textContent()).toBe(wrongInput);
    expect(await page.getByTestId('live-region').textContent()).toBe(wrongInput);

    await eraseForm.locator('input').fill(pseudonym);
    // accepted as soon as it opens; awaited after the click so a failed accept fails the test
    const accepted = page.waitForEvent('dialog').then((dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Endgültig löschen' }).click();
    await accepted;
    await expect.poll(() => page.getByTestId('erase-result').textContent()).toMatch(/^\d+ Datensätze gelöscht\.$/);
    // the completion is read out: the live region holds the same text
    expect(await page.getByTestId('live-region').textContent()).toBe(await page.getByTestId('erase-result').textContent());
    await expect.poll(() => log.textContent()).not.toContain('anna@example.org');
    expect(await log.textContent()).not.toContain(pseudonym);
  });

  it("says the collector's errors in the admin's language, beside the form and in the live region", async () => {
    const live = page.getByTestId('live-region');
    // another view by the menu: the erasure's result is not this view's, so the region is emptied
    expect(await live.textContent()).toMatch(/Datensätze gelöscht/);
    await page.getByRole('link', { name: 'Einstellungen' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Einstellungen');
    expect(await live.textContent()).toBe('');

    const zone = page.getByLabel('Zeitzone der Website (IANA-Name)');
    await expect.poll(() => zone.inputValue()).toBe('UTC');
    await zone.fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Speichern' }).first().click();
    const unknownZone = 'Fehlgeschlagen: Diese Zeitzone ist unbekannt. Bitte einen IANA-Namen wie Europe/Berlin angeben.';
    await expect.poll(() => page.getByTestId('zone-status').textContent()).toBe(unknownZone);
    expect(await live.textContent()).toBe(unknownZone);
    await zone.fill('UTC');

    // a retention past the field's max (as a browser that does not check it sends it): the collector's range, in German
    await page.locator('#retention-title ~ form').evaluate((form: HTMLFormElement) => (form.noValidate = true));
    const field = page.getByLabel('Cookie-Einwilligungen (Tage)');
    await expect.poll(() => field.inputValue()).toBe('1095');
    await field.fill('4000'); // longer than before: saved without asking
    const save = page.getByRole('button', { name: 'Speichern' }).nth(1);
    await save.click();
    // named: the collector's answer names the field (test/browser/admin-field-errors.test.ts has the field's own marks)
    const outOfRange = 'Fehlgeschlagen: „Cookie-Einwilligungen (Tage)“ muss eine ganze Zahl von 1 bis 3.650 sein.';
    await expect.poll(() => page.getByTestId('retention-result').textContent()).toBe(outOfRange);
    expect(await live.textContent()).toBe(outOfRange);
    // the same text twice is read twice: a new paragraph in the region each time
    const said = (await live.locator('p').elementHandle())!;
    await save.click();
    await expect.poll(() => said.evaluate((p) => p.isConnected)).toBe(false);
    expect(await live.textContent()).toBe(outOfRange);
    expect(await axeViolations(page)).toEqual([]);

    // answers without a code (a proxy's page, an older collector) by their status; the database's with its
    // code and Retry-After; no answer at all
    const cases: Array<{ answer: Parameters<Route['fulfill']>[0] | 'abort'; says: string }> = [
      {
        answer: { status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' },
        says: 'Der Server hat einen Fehler gemeldet (HTTP 502).',
      },
      {
        answer: {
          status: 503,
          headers: { 'retry-after': '5' },
          contentType: 'application/json',
          body: JSON.stringify({ error: 'database unavailable, try again', code: 'database_unavailable' }),
        },
        says: 'Die Datenbank ist gerade nicht erreichbar. Bitte in 5 s erneut versuchen.',
      },
      { answer: { status: 413, contentType: 'text/html', body: 'Request Entity Too Large' }, says: 'Die Anfrage ist zu groß.' },
      {
        answer: { status: 429, headers: { 'retry-after': '30' }, contentType: 'text/plain', body: 'slow down' },
        says: 'Zu viele Anfragen. Bitte in 30 s erneut versuchen.',
      },
      { answer: 'abort', says: 'Keine Antwort vom Collector. Bitte die Verbindung prüfen und erneut versuchen.' },
    ];
    const settings = (url: URL) => url.pathname === '/admin/api/settings';
    await field.fill('1095');
    for (const { answer, says } of cases) {
      await page.route(settings, (route) =>
        route.request().method() !== 'POST' ? route.continue() : answer === 'abort' ? route.abort() : route.fulfill(answer),
      );
      await save.click();
      await expect.poll(() => page.getByTestId('retention-result').textContent()).toBe(`Fehlgeschlagen: ${says}`);
      expect(await live.textContent()).toBe(`Fehlgeschlagen: ${says}`);
      await page.unroute(settings);
    }

    // the result shown follows a language switch; the next one is said in English
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect
      .poll(() => page.getByTestId('retention-result').textContent())
      .toBe('Failed: No answer from the collector. Check the connection and try again.');
    await page.getByLabel('Cookie consents (days)').fill('4000');
    await page.getByRole('button', { name: 'Save' }).nth(1).click();
    const english = 'Failed: “Cookie consents (days)” must be a whole number from 1 to 3,650.';
    await expect.poll(() => page.getByTestId('retention-result').textContent()).toBe(english);
    expect(await live.textContent()).toBe(english);
    await page.getByRole('button', { name: 'Deutsch' }).click();
    // another view: the next test opens the settings afresh
    await page.getByRole('link', { name: 'Übersicht' }).click();
    await expect.poll(() => live.textContent()).toBe('');
  });

  it('saves the retention setting, switches to English, and signs out', async () => {
    await openView('settings', 'Einstellungen');
    const field = page.getByLabel('Formular-Einwilligungen (Tage)');
    await expect.poll(() => field.inputValue()).toBe('1095');
    await field.fill('90');
    // a shorter period deletes at once: asked first; cancelled, nothing is saved
    const asked: string[] = [];
    const answer = (accept: boolean) =>
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        return accept ? dialog.accept() : dialog.dismiss();
      });
    answer(false);
    // the second form's button: the first saves the time zone
    await page.getByRole('button', { name: 'Speichern' }).nth(1).click();
    await expect
      .poll(() => asked)
      .toEqual([
        'Kürzere Fristen löschen ältere Daten sofort und endgültig: Formular-Einwilligungen (Tage) 1.095 → 90. Speichern?',
      ]);
    expect(await page.getByTestId('retention-result').textContent()).toBe('');
    expect(await page.getByTestId('live-region').textContent()).toBe('');
    answer(true);
    await page.getByRole('button', { name: 'Speichern' }).nth(1).click();
    await expect
      .poll(() => page.getByTestId('retention-result').textContent())
      .toMatch(/^Gespeichert\. \d+ alte Datensätze gelöscht\.$/);
    // read out: the live region holds the completion text
    expect(await page.getByTestId('live-region').textContent()).toBe(await page.getByTestId('retention-result').textContent());
    expect(await axeViolations(page)).toEqual([]);
    await shoot('retention');

    await page.getByRole('button', { name: 'Switch to English' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Settings');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'Deutsch' }).click();

    await Promise.all([page.waitForURL('**/admin/login?signed-out=1'), page.getByRole('button', { name: 'Abmelden' }).click()]);
    expect(await page.locator('[role="status"]').textContent()).toContain('Sie sind abgemeldet.');
    expect((await admin.cookies()).some((c) => c.name === 'pagepulse_admin')).toBe(false);
    expect((await page.request.get(`${collector.url}/admin/api/online`)).status()).toBe(401);
    await page.goto(`${collector.url}/admin/`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await admin.close();
  });

  it('an English browser gets the sign-in page and the app in English, until the admin picks German', async () => {
    const context = await browser.newContext({ viewport: WIDTHS.desktop, locale: 'en-US' });
    const english = await context.newPage();
    await english.goto(`${collector.url}/admin/`);
    expect(await english.evaluate(() => document.documentElement.lang)).toBe('en');
    await english.fill('#password', ADMIN_PASSWORD);
    await Promise.all([english.waitForURL(`${collector.url}/admin/`), english.getByRole('button', { name: 'Sign in' }).click()]);
    // nothing stored yet: the browser's language, as on the sign-in page
    await expect.poll(() => english.locator('h1').textContent()).toBe('Overview');
    expect(await english.evaluate(() => document.documentElement.lang)).toBe('en');
    // the admin's own choice wins from then on
    await english.getByRole('button', { name: 'Auf Deutsch umschalten' }).click();
    await english.reload();
    await expect.poll(() => english.locator('h1').textContent()).toBe('Übersicht');
    await context.close();
  });

  it("the date picker's last day and the token times are the site's (its time zone), not the browser's", async () => {
    // 25 hours apart: the browser's date is always another than the site's
    const site = 'Pacific/Pago_Pago';
    const api = await signIn(collector.url);
    expect((await api.post('/admin/api/settings', { timeZone: site })).status).toBe(200);
    const context = await browser.newContext({ viewport: WIDTHS.desktop, locale: 'de-DE', timezoneId: 'Pacific/Kiritimati' });
    const far = await context.newPage();
    await signInPage(far, collector.url);
    const siteDay = (format: Intl.DateTimeFormatOptions, lang = 'en-CA') =>
      new Intl.DateTimeFormat(lang, { ...format, timeZone: site }).format(new Date());
    const today = siteDay({ year: 'numeric', month: '2-digit', day: '2-digit' });
    await far.getByTestId('period').selectOption('custom');
    await expect.poll(() => far.getByLabel('Bis').getAttribute('max')).toBe(today);
    expect(await far.getByLabel('Von').getAttribute('max')).toBe(today);
    // a token made now: listed at the site's date
    await far.goto(`${collector.url}/admin/#settings`);
    await far.getByLabel('Name (wofür)').fill('Zeitzone');
    await far.getByRole('button', { name: 'Token erstellen' }).click();
    const created = far.getByTestId('tokens').locator('tbody tr', { hasText: 'Zeitzone' }).locator('td').nth(2);
    await expect
      .poll(() => created.textContent())
      .toMatch(new RegExp(`^${siteDay({ dateStyle: 'short' }, 'de').replace(/\./g, '\\.')}, `));
    await context.close();
    expect((await api.post('/admin/api/settings', { timeZone: 'UTC' })).status).toBe(200);
  });
});
