import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectPageErrors, shadowText } from '../support/browser';
import { fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

/** Absence window: long enough for three heartbeats; none of categories 3 or 4 may run in it. */
const THREE_HEARTBEATS_MS = 2500;
/** Absence window: nothing the texts carried ran (onerror never fired). */
const NOTHING_RUNS_MS = 300;

/**
 * A site that already runs com_gdpr (docs/protocol.md#consent-at-start-up). Its system plugin prints globals into the page;
 * a returning visitor has only com_gdpr's `cookieconsent_status` (and maybe its localStorage toggles).
 */
let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.file('/vendor/ad.js', "(window.order = window.order || []).push('ad');", 'text/javascript');
  server.file('/vendor/stats.js', "(window.order = window.order || []).push('stats');", 'text/javascript');
  server.page('/embed.html', '<!doctype html><title>Video</title><p>Video</p>');
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BLOCKED = `<h1>Studio</h1>
<iframe data-category="4" data-src="/embed.html" title="Studio-Video" width="400" height="200"></iframe>
<script type="text/plain" data-category="4" data-src="/vendor/ad.js"></script>
<script type="text/plain" data-category="3" data-src="/vendor/stats.js"></script>`;
/** What com_gdpr's system plugin prints (inline, before our tag), as page globals. */
const globals = (source: string) => `<script>${source}</script>`;

interface Visit {
  context: BrowserContext;
  page: Page;
  errors: string[];
}
/** A fresh visitor with com_gdpr's cookie (and localStorage) on a page at `path`. */
async function visit(path: string, html: string, options: { status?: string; choices?: string } = {}): Promise<Visit> {
  server.page(path, html);
  const context = await browser.newContext();
  if (options.status)
    await context.addCookies([{ name: 'cookieconsent_status', value: options.status, url: server.origin, sameSite: 'Lax' }]);
  if (options.choices)
    await context.addInitScript((value) => localStorage.setItem('gdprCategoriesChoices', value), options.choices);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${server.origin}${path}`);
  return { context, page, errors };
}
const heartbeats = (path: string) => server.calls('stream.display').filter((c) => c.body.includes(path.slice(1)));
const banner = (page: Page) => page.locator('pagepulse-consent .banner');

/** Waits long enough for three heartbeats (the 2.5 s), then checks that nothing of 3 or 4 ran. */
async function expectStatsAndMarketingOff({ context, page, errors }: Visit, path: string): Promise<void> {
  await page.waitForFunction(() => window.PagePulse !== undefined);
  await sleep(THREE_HEARTBEATS_MS);
  expect(heartbeats(path)).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { order?: string[] }).order)).toBeUndefined();
  expect(await page.locator('iframe').getAttribute('src')).toBeNull();
  expect(await page.evaluate(() => window.PagePulse!.consent.get())).toEqual({
    status: 'allow',
    categories: { 1: true, 2: true, 3: false, 4: false },
    chosen: true,
    services: [],
    id: null, // chosen under com_gdpr: no consent ID until a choice here
  });
  expect(await banner(page).count()).toBe(0); // a choice exists: no banner
  expect(errors).toEqual([]);
  await context.close();
}

describe('a com_gdpr "allow" never widens the choice', () => {
  it('only cookieconsent_status=allow and gdprCookieCategoryDisabled3/4 = 1: no heartbeat, nothing of category 4 released', async () => {
    const html = fixturePage({
      head: globals('var gdprCookieCategoryDisabled3=1; var gdprCookieCategoryDisabled4=1;'),
      body: BLOCKED,
    });
    await expectStatsAndMarketingOff(await visit('/gdpr-globals.html', html, { status: 'allow' }), '/gdpr-globals.html');
  });

  it('the same with the choices only in gdprCategoriesChoices (defaults on, the toggles say off)', async () => {
    // the site's own defaults switch 3 and 4 on, so only the visitor's stored toggles keep them off
    const head = globals('window.PagePulseConfig = { categories: { 3: { defaultOn: true }, 4: { defaultOn: true } } };');
    const html = fixturePage({ head, body: BLOCKED });
    await expectStatsAndMarketingOff(
      await visit('/gdpr-choices.html', html, { status: 'allow', choices: '{"1":0,"2":0,"3":1,"4":1}' }),
      '/gdpr-choices.html',
    );
  });

  it('hostile gdprCategoriesChoices change nothing and break nothing', async () => {
    const html = fixturePage({
      head: globals('var gdprCookieCategoryDisabled3=1; var gdprCookieCategoryDisabled4=1;'),
      body: BLOCKED,
    });
    await expectStatsAndMarketingOff(
      await visit('/gdpr-hostile.html', html, { status: 'allow', choices: '{"3":0,"4":0,"__proto__":{"x":1}' }),
      '/gdpr-hostile.html',
    );
  });

  it('a category the server allows and the visitor switched on does run (the rule is not "always off")', async () => {
    const { context, page, errors } = await visit(
      '/gdpr-on.html',
      fixturePage({ head: globals('var gdprCookieCategoryDisabled4=1;'), body: BLOCKED }),
      {
        status: 'allow',
        choices: '{"3":0}',
      },
    );
    await server.waitFor('stream.display');
    expect(heartbeats('/gdpr-on.html').length).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => (window as unknown as { order?: string[] }).order)).toEqual(['stats']);
    expect(await page.locator('iframe').getAttribute('src')).toBeNull();
    expect(await page.evaluate(() => window.PagePulse!.consent.get().categories)).toEqual({
      1: true,
      2: true,
      3: true,
      4: false,
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});

const SITE_OPTIONS = `var gdprConfigurationOptions = {
  complianceType: 'opt-out',
  headerText: 'Cookies bei <em>Lichtwerk</em> &amp; Co.',
  messageText: 'Wir fragen vorher. <img src=x onerror="window.__pwned=1"><a href="javascript:window.__pwned=2">böse</a> <a href="/impressum">Impressum</a><script>window.__pwned=3<\\/script>',
  denyText: 'Nein, danke',
  allowText: 'Cookies erlauben',
  cookieSettingsLabel: 'Ihre Auswahl:',
  cookieSettingsDesc: 'Klicken Sie auf einen <strong>Namen</strong> für Details.',
  privacyPolicyLinkText: 'Unsere Datenschutzhinweise',
  privacyPolicyLink: '/kontakt/datenschutz.html',
  cookiePolicyLinkText: 'Cookie-Liste',
  cookiePolicyLink: '/cookies.html',
  cookieCategory1Enable: 1, cookieCategory1Name: 'Technisch nötig', cookieCategory1Locked: 1,
  cookieCategory2Enable: 1, cookieCategory2Name: 'Komfort', cookieCategory2Locked: 0,
  cookieCategory3Enable: 1, cookieCategory3Name: 'Besucherstatistik', cookieCategory3Locked: 0,
  cookieCategory4Enable: 1, cookieCategory4Name: 'Werbung', cookieCategory4Locked: 0,
  openAlwaysDeclined: 1
};`;

describe("the site's com_gdpr texts", () => {
  it('replace the built-in strings as the site wrote them; markup only through the allowlist', async () => {
    const { context, page, errors } = await visit(
      '/gdpr-texts.html',
      fixturePage({ head: globals(SITE_OPTIONS), body: '<p>Seite</p>' }),
    );
    await banner(page).waitFor();
    const root = 'pagepulse-consent .banner';
    expect(await page.locator(`${root} #pp-title`).textContent()).toBe('Cookies bei Lichtwerk & Co.');
    expect(await page.locator(`${root} #pp-title em`).textContent()).toBe('Lichtwerk');
    const text = await page.locator(`${root} #pp-text`).textContent();
    expect(text).toContain('Wir fragen vorher.');
    expect(
      await page.locator(`${root} #pp-text a`).evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')])),
    ).toEqual([
      ['böse', null],
      ['Impressum', `${server.origin}/impressum`],
      ['Unsere Datenschutzhinweise', '/kontakt/datenschutz.html'],
      ['Cookie-Liste', '/cookies.html'],
    ]);
    expect(await page.locator(`${root} legend`).textContent()).toBe('Ihre Auswahl:');
    expect(await page.locator(`${root} .desc strong`).textContent()).toBe('Namen');
    expect(await page.locator(`${root} .actions button`).allTextContents()).toEqual([
      'Nein, danke',
      'Auswahl speichern',
      'Cookies erlauben',
    ]);
    expect(await page.locator(`${root} button.name`).allTextContents()).toEqual([
      'Technisch nötig',
      'Komfort',
      'Besucherstatistik',
      'Werbung',
    ]);
    // nothing that could run reached the page: no img, no script, no handler, and the onerror never fired
    await sleep(NOTHING_RUNS_MS);
    expect(
      await page.evaluate(
        () =>
          document.querySelector('pagepulse-consent')!.shadowRoot!.querySelectorAll('img, script, [onerror], [onclick]').length,
      ),
    ).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await shadowText(page, 'pagepulse-consent')).not.toContain('Cookie-Einstellungen');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a data-privacy-url wins over privacyPolicyLink; without com_gdpr options the built-in texts stay', async () => {
    const html = fixturePage({
      head: globals(SITE_OPTIONS),
      body: '<p>Seite</p>',
      attrs: { 'data-privacy-url': '/eigene.html' },
    });
    const one = await visit('/gdpr-own-privacy.html', html);
    await banner(one.page).waitFor();
    expect(
      await one.page.locator('pagepulse-consent #pp-text a', { hasText: 'Unsere Datenschutzhinweise' }).getAttribute('href'),
    ).toBe('/eigene.html');
    await one.context.close();
    const two = await visit('/gdpr-none.html', fixturePage({ body: '<p>Seite</p>' }));
    await banner(two.page).waitFor();
    expect(await two.page.locator('pagepulse-consent #pp-title').textContent()).toBe('Cookie-Einstellungen');
    expect(await two.page.locator('pagepulse-consent .actions button').allTextContents()).toEqual([
      'Ablehnen',
      'Auswahl speichern',
      'Alle akzeptieren',
    ]);
    await two.context.close();
  });
});

describe('openAlwaysDeclined', () => {
  it('with openAlwaysDeclined: 1 and a deny cookie the banner is open on every page view, decline first', async () => {
    const { context, page, errors } = await visit(
      '/gdpr-declined.html',
      fixturePage({ head: globals(SITE_OPTIONS), body: '<p>Seite</p>' }),
      { status: 'deny' },
    );
    await banner(page).waitFor();
    expect(await page.locator('pagepulse-consent .actions button').first().textContent()).toBe('Nein, danke');
    await page.reload();
    await banner(page).waitFor();
    expect(await page.evaluate(() => window.PagePulse!.consent.get())).toEqual({
      status: 'deny',
      categories: { 1: true, 2: false, 3: false, 4: false },
      chosen: true,
      services: [],
      id: null,
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without com_gdpr options a deny cookie keeps the banner closed (current behaviour)', async () => {
    const { context, page } = await visit('/gdpr-declined-plain.html', fixturePage({ body: '<p>Seite</p>' }), { status: 'deny' });
    await page.waitForFunction(() => window.PagePulse !== undefined);
    // the revoke button appears at an idle moment: once it is there the start-up decision is made
    await page.locator('pagepulse-consent').getByRole('button', { name: 'Cookie-Einstellungen' }).waitFor();
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });
});
