import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUNDLE, collectPageErrors } from '../support/browser';
import { enc } from '../support/jquery-param';
import { fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.file('/vendor/stats.js', "(window.order = window.order || []).push('stats');", 'text/javascript');
});

async function visit(
  path: string,
  html: string,
  init?: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  server.page(path, html);
  const context = await browser.newContext();
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${server.origin}${path}`);
  return { context, page, errors };
}
const cookies = async (context: BrowserContext) => Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
const withConfig = (config: object, options: Parameters<typeof fixturePage>[0] = {}) =>
  fixturePage(options).replace(
    '<script src="/dist',
    `<script src="/config-${Object.keys(config).join('-')}.js"></script><script src="/dist`,
  );

describe('Google Consent Mode v2 and a choice without reload', () => {
  it('pushes the default before any tag and the update after the choice; the tracker and scripts start live', async () => {
    server.file(
      '/gtag-setup.js',
      'window.dataLayer = window.dataLayer || []; window.gtag = function () { dataLayer.push(arguments); };',
      'text/javascript',
    );
    server.file('/config-reloadAfterChange.js', 'window.PagePulseConfig = { reloadAfterChange: false };', 'text/javascript');
    const html = withConfig(
      { reloadAfterChange: false },
      { body: '<script type="text/plain" data-category="3" data-src="/vendor/stats.js"></script>' },
    ).replace('<title>Fixture</title>', '<title>Fixture</title><script src="/gtag-setup.js"></script>');
    const { context, page, errors } = await visit('/gcm.html', html);
    const consentCalls = () =>
      page.evaluate(() =>
        (window as unknown as { dataLayer: IArguments[] }).dataLayer
          .map((entry) => Array.from(entry as ArrayLike<unknown>))
          .filter((e) => e[0] === 'consent'),
      );
    const first = await consentCalls();
    expect(first[0]).toEqual([
      'consent',
      'default',
      {
        security_storage: 'granted',
        functionality_storage: 'granted',
        personalization_storage: 'granted',
        analytics_storage: 'denied',
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
        wait_for_update: 500,
      },
    ]);
    // gtag.js needs real Arguments objects
    expect(
      await page.evaluate(() => Object.prototype.toString.call((window as unknown as { dataLayer: unknown[] }).dataLayer[0])),
    ).toBe('[object Arguments]');
    await page.locator('pagepulse-consent input#pp-cat-3').check();
    await page.locator('pagepulse-consent').getByRole('button', { name: 'Auswahl speichern' }).click();
    await expect.poll(async () => (await consentCalls()).length).toBe(2);
    expect((await consentCalls())[1]).toEqual([
      'consent',
      'update',
      {
        security_storage: 'granted',
        functionality_storage: 'granted',
        personalization_storage: 'granted',
        analytics_storage: 'granted',
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
      },
    ]);
    // no reload configured: the statistics script and the tracker start on this page
    await expect.poll(() => page.evaluate(() => (window as unknown as { order?: string[] }).order)).toEqual(['stats']);
    await expect.poll(() => server.calls('stream.display').filter((c) => c.body.includes('gcm.html')).length).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.PagePulse!.tracker.running())).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('Google Consent Mode with the tag first in <head>', () => {
  it("pushes the default when gtag's snippet appears after the tag, before it can run, and the update at the choice", async () => {
    // gtag's snippet pasted unchanged after the tag: no dataLayer when the bundle runs
    const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Studio</title>
<script src="/dist/${BUNDLE}"></script>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-TEST');</script>
</head><body><p>Studio</p></body></html>`;
    server.page('/gcm-head.html', html);
    const context = await browser.newContext();
    await context.route('https://www.googletagmanager.com/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'window.__gtagLoaded = true;' }),
    );
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.origin}/gcm-head.html`);
    await page.locator('pagepulse-consent .banner').waitFor();
    const entries = () =>
      page.evaluate(() =>
        ((window as unknown as { dataLayer?: IArguments[] }).dataLayer ?? []).map((entry) => {
          const [command, kind, value] = Array.from(entry as ArrayLike<unknown>);
          return command === 'consent' ? `consent ${String(kind)} ${JSON.stringify(value)}` : String(command);
        }),
      );
    const denied = (key: string) => `"${key}":"denied"`;
    const before = await entries();
    // before a choice: the default alone (the snippet is held), everything but the locked categories denied
    expect(before).toHaveLength(1);
    expect(before[0]).toMatch(/^consent default /);
    for (const key of ['analytics_storage', 'ad_storage', 'ad_user_data', 'ad_personalization'])
      expect(before[0]).toContain(denied(key));
    await page.locator('pagepulse-consent input#pp-cat-3').check();
    await page.locator('pagepulse-consent').getByRole('button', { name: 'Auswahl speichern' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __gtagLoaded?: boolean }).__gtagLoaded)).toBe(true);
    const after = await entries();
    // the update before the released snippet's own calls: gtag.js reads them in this order
    expect(after.slice(0, 2).map((e) => e.split(' ').slice(0, 2).join(' '))).toEqual(['consent default', 'consent update']);
    expect(after[1]).toContain('"analytics_storage":"granted"');
    expect(after[1]).toContain(denied('ad_storage'));
    expect(after.slice(2)).toEqual(['js', 'config']);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('country rule', () => {
  it('accepts automatically outside the EU/EEA/GB/CH, in place: no reload, the page view is sent from this page', async () => {
    const { context, page, errors } = await visit('/country.html', fixturePage({ attrs: { 'data-country': 'US' } }));
    const origin = await page.evaluate(() => performance.timeOrigin);
    await page.waitForFunction(() => document.cookie.includes('cookieconsent_status'));
    await expect
      .poll(
        () =>
          server.calls('stream.display').filter((c) => c.body.includes('country.html') && c.body.includes('initialize=true'))
            .length,
      )
      .toBe(1);
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(origin);
    expect(await cookies(context)).toMatchObject({ cookieconsent_categories: '1.2.3.4' });
    expect(await page.locator('pagepulse-consent .banner').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('never turns marketing on by itself under Global Privacy Control, and asks in Germany', async () => {
    const { context } = await visit(
      '/country-gpc.html',
      fixturePage({ attrs: { 'data-country': 'US' } }),
      "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });",
    );
    await expect.poll(async () => (await cookies(context)).cookieconsent_categories).toBe('1.2.3');
    await context.close();
    const de = await visit('/country-de.html', fixturePage({ attrs: { 'data-country': 'DE' } }));
    await de.page.locator('pagepulse-consent .banner').waitFor();
    expect(await de.context.cookies()).toEqual([]);
    await de.context.close();
  });
});

describe('form consent', () => {
  it('stores the consent when the privacy box is ticked and deletes it when unticked, with the tracked fields', async () => {
    const form = `<form id="kontaktformular" name="kontakt">
      <input id="jform_name" name="jform[name]" value="Anna Weber"><input id="jform_email" name="jform[email]" type="email" value="anna@example.org">
      <input id="jform_subject" name="jform[subject]" value="Hochzeit"><textarea id="jform_message" name="jform[message]">Hallo!</textarea>
      <input id="ff_elem12" name="email2" value="b@example.org">
      <input id="jform_phone" name="jform[phone]" value="0761"><input type="hidden" name="jform[name_hidden]" value="x">
      <input type="checkbox" id="jform_privacy" name="jform[privacy]"><label for="jform_privacy">Datenschutz</label></form>`;
    const { context, page, errors } = await visit('/form.html', fixturePage({ body: form }));
    await page.locator('#jform_privacy').check();
    const [stored] = await server.waitFor('user.storeConsent', 1);
    expect(stored!.url).toBe('/index.php?option=com_gdpr&task=user.storeConsent&format=raw');
    // the address part from jQuery 1.12.4's own $.param (test/support/jquery-param.ts), the rest hand-written
    expect(stored!.body).toBe(
      `url=${enc(`${server.origin}/form.html`)}&formid=kontaktformular&formname=kontakt&formfields%5Bname%5D=Anna+Weber&formfields%5Bemail%5D=anna%40example.org&formfields%5Bsubject%5D=Hochzeit&formfields%5Bmessage%5D=Hallo!&formfields%5Bff+elem12%5D=b%40example.org`,
    );
    // a form builder's field: its id says nothing, its name says e-mail (labelled by the id, as the spec has it)
    await page.locator('#jform_privacy').uncheck();
    const [deleted] = await server.waitFor('user.deleteConsent', 1);
    expect(deleted!.body).toBe(stored!.body);
    expect(errors).toEqual([]);
    await context.close();
  });
});
