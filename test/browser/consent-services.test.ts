import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALLOW_ALL, DECLINED_MARKETING, TRACKING } from '../support/consent-cookies';
import { collectPageErrors } from '../support/browser';
import { fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

// docs/protocol.md section 5b against the built bundle (PAGEPULSE_BUNDLE): cookies cleared when
// consent goes, a policy revision asks again, services with "load once / always allow".
let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.file('/vendor/ad.js', "(window.order = window.order || []).push('ad');", 'text/javascript');
  server.file('/vendor/stats.js', "(window.order = window.order || []).push('stats');", 'text/javascript');
});

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');
const YOUTUBE = 'https://www.youtube-nocookie.com/embed/abc123';
const YOUTUBE_2 = 'https://www.youtube.com/embed/def456';
const VIMEO = 'https://player.vimeo.com/video/789';
const banner = (page: Page) => page.locator('pagepulse-consent .banner');
const jar = async (context: BrowserContext) => Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
const timeOrigin = (page: Page) => page.evaluate(() => performance.timeOrigin);
/** The consent log calls (com_gdpr) since a request index. */
const logsSince = (since: number) => server.requests.slice(since).filter((r) => r.option === 'com_gdpr');

/** A new context with these cookies on the test server's origin, and a page at `path`. */
async function visit(path: string, html: string, cookies: Record<string, string> = {}) {
  server.page(path, html);
  const context = await browser.newContext();
  await context.addCookies(
    Object.entries(cookies).map(([name, value]) => ({ name, value, url: server.origin, sameSite: 'Lax' as const })),
  );
  // the embeds' hosts, served by the test itself: a page naming where it was loaded from
  await context.route(/^https:\/\/(www\.youtube-nocookie\.com|www\.youtube\.com|player\.vimeo\.com)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>embed</title><p>${route.request().url()}</p>` }),
  );
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${server.origin}${path}`);
  return { context, page, errors };
}

/** Run `act` and wait until the page has reloaded (a new document has loaded). */
async function reloadedBy(page: Page, act: () => Promise<unknown>): Promise<void> {
  const before = await timeOrigin(page);
  await act();
  await expect.poll(() => timeOrigin(page).catch(() => before), { timeout: 10_000 }).not.toBe(before);
  await page.waitForLoadState('load');
}

describe('cookies cleared when consent goes', () => {
  it('set({3: false}) clears _ga, _ga_ABC123 and _gid before the reload; set({4: false}) then clears _fbp; keep=1 stays', async () => {
    const { context, page, errors } = await visit('/clear.html', fixturePage(), { ...ALLOW_ALL, ...TRACKING, keep: '1' });
    await page.waitForFunction(() => window.PagePulse !== undefined);
    expect(Object.keys(await jar(context))).toEqual(expect.arrayContaining(['_ga', '_ga_ABC123', '_gid', '_fbp', 'keep']));

    await reloadedBy(page, () => page.evaluate(() => window.PagePulse!.consent.set({ 3: false })));
    let now = await jar(context);
    expect(['_ga', '_ga_ABC123', '_gid'].filter((name) => name in now)).toEqual([]);
    expect(now).toMatchObject({ _fbp: TRACKING._fbp, keep: '1', cookieconsent_categories: '1.2.4' });

    await page.waitForFunction(() => window.PagePulse !== undefined);
    await reloadedBy(page, () => page.evaluate(() => window.PagePulse!.consent.set({ 4: false })));
    now = await jar(context);
    expect('_fbp' in now).toBe(false);
    expect(now).toMatchObject({ keep: '1', cookieconsent_categories: '1.2' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at start-up: a visitor who declined but still carries _ga loses it; the site cookie and the consent stay', async () => {
    const { context, page } = await visit('/clear-deny.html', fixturePage(), {
      cookieconsent_status: 'deny',
      cookieconsent_categories: '1',
      _ga: 'GA1.1.42.1700000000',
      keep: '1',
    });
    await page.waitForFunction(() => window.PagePulse !== undefined);
    const now = await jar(context);
    expect('_ga' in now).toBe(false);
    expect(now).toMatchObject({ keep: '1', cookieconsent_status: 'deny', cookieconsent_categories: '1' });
    await context.close();
  });

  it("clears the site's own patterns of a category that is off (categories.N.cookies, a prefix with *)", async () => {
    server.file(
      '/config-cookies.js',
      "window.PagePulseConfig = { categories: { 2: { cookies: ['pref_*'] }, 3: { cookies: ['hj_session'] } } };",
      'text/javascript',
    );
    const html = fixturePage().replace('<script src="/dist', '<script src="/config-cookies.js"></script><script src="/dist');
    const { context, page } = await visit('/clear-site.html', html, {
      cookieconsent_status: 'allow',
      cookieconsent_categories: '1.2',
      pref_theme: 'dark',
      hj_session: 'x',
      keep: '1',
    });
    await page.waitForFunction(() => window.PagePulse !== undefined);
    const now = await jar(context);
    expect('hj_session' in now).toBe(false);
    expect(now).toMatchObject({ pref_theme: 'dark', keep: '1' }); // category 2 is on: its cookie stays
    await context.close();
  });
});

describe('a new policy revision asks again', () => {
  const BLOCKED = `<iframe data-category="4" data-src="/embed.html" title="Video"></iframe>
<script type="text/plain" data-category="4" data-src="/vendor/ad.js"></script>
<script type="text/plain" data-category="3" data-src="/vendor/stats.js"></script>`;
  const page = (revision: string) => fixturePage({ body: BLOCKED, attrs: { 'data-revision': revision } });

  it('data-revision="2" over an older choice: banner, nothing of 3 and 4; after a choice no banner; revision 3 asks again', async () => {
    server.page('/embed.html', '<!doctype html><title>Video</title><p>Video</p>');
    const before = server.calls('stream.display').length;
    const visited = await visit('/rev.html', page('2'), { ...ALLOW_ALL, ...TRACKING });
    const { context, errors } = visited;
    let tab = visited.page;
    await banner(tab).waitFor();
    expect(await tab.evaluate(() => window.PagePulse!.consent.get())).toMatchObject({
      chosen: false,
      categories: { 1: true, 2: true, 3: false, 4: false },
    });
    // what the old choice no longer allows is cleared at once; the consent cookies stay until a choice
    const cookies = await jar(context);
    expect(['_ga', '_ga_ABC123', '_gid', '_fbp'].filter((name) => name in cookies)).toEqual([]);
    expect(cookies).toMatchObject(ALLOW_ALL);
    // the page's load event has passed and the blocked scripts were inspected: none of them ran
    expect(await tab.evaluate(() => (window as unknown as { order?: string[] }).order ?? null)).toBeNull();
    expect(await tab.locator('iframe').getAttribute('src')).toBeNull();
    expect(server.calls('stream.display').length).toBe(before);

    // the banner says why it is back
    expect(await banner(tab).textContent()).toContain('Wir haben unsere Hinweise geändert');
    // a choice that only adds is released in place: no reload
    const origin = await timeOrigin(tab);
    await tab.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren' }).click();
    await expect.poll(async () => (await jar(context)).cookieconsent_revision).toBe('2');
    expect(await jar(context)).toMatchObject({ cookieconsent_categories: '1.2.3.4' });
    expect(await timeOrigin(tab)).toBe(origin);
    expect(await banner(tab).count()).toBe(0);
    await expect.poll(() => tab.evaluate(() => (window as unknown as { order?: string[] }).order ?? [])).toEqual(['ad', 'stats']);

    server.page('/rev3.html', page('3'));
    tab = await context.newPage();
    await tab.goto(`${server.origin}/rev3.html`);
    await banner(tab).waitFor();
    expect(await tab.evaluate(() => window.PagePulse!.consent.get().chosen)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('services: "load once" and "always allow" on the placeholder', () => {
  const EMBEDS = `<h1>Videos</h1>
<iframe data-category="4" data-src="${YOUTUBE}" title="Studio-Film" width="400" height="220"></iframe>
<iframe data-category="4" data-src="${YOUTUBE_2}" title="Hochzeitsfilm"></iframe>
<iframe data-category="4" data-src="${VIMEO}" title="Vimeo-Film"></iframe>`;
  const srcs = (page: Page) => page.locator('iframe').evaluateAll((frames) => frames.map((f) => f.getAttribute('src')));

  it('names YouTube; "Einmal laden" loads that element only, stores and logs nothing, and is gone after a reload', async () => {
    const { context, page, errors } = await visit('/yt-once.html', fixturePage({ body: EMBEDS }), DECLINED_MARKETING);
    const first = page.locator('.gdprlock-placeholder').first();
    await first.waitFor();
    // in its own shadow root: the service, its provider, what loading sends, the provider's privacy policy
    const text = await first.evaluate((host) => host.shadowRoot!.textContent);
    expect(text).toContain('Inhalt von YouTube');
    expect(text).toContain('Beim Laden gehen Daten wie Ihre IP-Adresse an Google Ireland Limited.');
    expect(await first.getByRole('link', { name: 'Datenschutzhinweise von Google Ireland Limited' }).getAttribute('href')).toBe(
      'https://policies.google.com/privacy',
    );
    expect(await first.getByRole('button').allTextContents()).toEqual(['Einmal laden', 'Immer erlauben: YouTube']);
    // the Vimeo placeholder names its own service
    expect(await page.locator('.gdprlock-placeholder').nth(2).getByRole('button').allTextContents()).toEqual([
      'Einmal laden',
      'Immer erlauben: Vimeo',
    ]);
    const since = server.requests.length;
    await first.getByRole('button', { name: 'Einmal laden' }).click();
    await expect.poll(() => srcs(page)).toEqual([YOUTUBE, null, null]);
    expect(await page.locator('.gdprlock-placeholder').count()).toBe(2);
    expect(await page.frameLocator('iframe[title="Studio-Film"]').locator('p').textContent()).toBe(YOUTUBE);
    expect(await jar(context)).toEqual(DECLINED_MARKETING);
    expect(logsSince(since)).toEqual([]);

    await page.reload();
    await page.locator('.gdprlock-placeholder').first().waitFor();
    expect(await srcs(page)).toEqual([null, null, null]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('"Immer erlauben: YouTube" loads every YouTube element at once without a reload, Vimeo stays blocked, is logged and remembered', async () => {
    const { context, page, errors } = await visit('/yt-always.html', fixturePage({ body: EMBEDS }), DECLINED_MARKETING);
    await page.locator('.gdprlock-placeholder').first().waitFor();
    const origin = await timeOrigin(page);
    const since = server.requests.length;
    await page.getByRole('button', { name: 'Immer erlauben: YouTube' }).first().click();
    await expect.poll(() => srcs(page)).toEqual([YOUTUBE, YOUTUBE_2, null]);
    expect(await timeOrigin(page)).toBe(origin);
    expect(await page.locator('.gdprlock-placeholder').count()).toBe(1);
    // polled: while the log call is on its way the queue's marker `pagepulse_q=1` is there too (README,
    // until delivered; a busy CI run read it), and it must be gone once the server answered
    await expect
      .poll(() => jar(context))
      .toEqual({
        ...DECLINED_MARKETING,
        pagepulse_services: 'youtube',
        pagepulse_consent_id: expect.stringMatching(/^[\w-]{22}$/),
      });
    expect(await page.evaluate(() => window.PagePulse!.consent.get())).toMatchObject({
      categories: { 4: false },
      services: ['youtube'],
    });
    // logged with the consent ID: what stands now, and the service
    await expect.poll(() => logsSince(since).length).toBe(1);
    expect(Object.fromEntries(new URLSearchParams(logsSince(since)[0]!.body))).toMatchObject({
      gdpr_generic_cookie_consent: '1',
      consent_categories: '1.2',
      consent_services: 'youtube',
      consent_id: (await jar(context)).pagepulse_consent_id,
    });

    await page.reload();
    await page.locator('.gdprlock-placeholder').first().waitFor();
    expect(await srcs(page)).toEqual([YOUTUBE, YOUTUBE_2, null]);
    expect(await page.locator('.gdprlock-placeholder').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the placeholder passes axe and works by keyboard; the dialog lists the category's services with their own switches (axe clean)", async () => {
    const { context, page, errors } = await visit('/yt-a11y.html', fixturePage({ body: EMBEDS }), DECLINED_MARKETING);
    await page.locator('.gdprlock-placeholder').first().waitFor();
    await page.evaluate(AXE);
    const axe = (include: string[][]) =>
      page.evaluate(async (include) => {
        const run = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string }[] }> } })
          .axe.run;
        const result = await run({ include }, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
        return result.violations.map((v) => v.id);
      }, include);
    expect(await axe([['.gdprlock-placeholder']])).toEqual([]);
    // the placeholder is a labelled group; Tab reaches its buttons, Enter loads once
    expect(await page.getByRole('group', { name: 'YouTube' }).count()).toBe(2);
    const focused = () => page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.textContent);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Datenschutzhinweise von Google Ireland Limited');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Einmal laden');
    await page.keyboard.press('Enter');
    await expect.poll(() => srcs(page)).toEqual([YOUTUBE, null, null]);

    // the settings: Marketing's details list YouTube, Vimeo, Google Maps and the Meta pixel, each switchable
    await page.evaluate(() => window.PagePulse!.consent.open());
    await banner(page).waitFor();
    await page.locator('pagepulse-consent').getByRole('button', { name: 'Marketing' }).click();
    const dialog = page.locator('pagepulse-consent dialog');
    const services = dialog.getByRole('group', { name: 'Dienste' }).getByRole('checkbox');
    await expect.poll(() => services.count()).toBe(4);
    expect(await axe([['pagepulse-consent']])).toEqual([]);
    await dialog.getByRole('checkbox', { name: 'Vimeo' }).check();
    await page.keyboard.press('Escape');
    const since = server.requests.length;
    await page.locator('pagepulse-consent').getByRole('button', { name: 'Auswahl speichern' }).click();
    await expect.poll(async () => (await jar(context)).pagepulse_services).toBe('vimeo');
    // a service added needs no reload: the Vimeo element loads at once; the one log call records it
    await expect.poll(() => srcs(page)).toEqual([YOUTUBE, null, VIMEO]);
    expect(logsSince(since).map((r) => r.task)).toEqual(['user.processGenericCookieCategories']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
