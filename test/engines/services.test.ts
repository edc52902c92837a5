import { describe, expect, it } from 'vitest';
import { ALLOW_ALL, DECLINED_MARKETING, TRACKING } from '../support/consent-cookies';
import { BUNDLES, useEngine, type EnginePage } from '../support/engines';
import { clickAndWatch, consentLogs, documentId, loadedDocumentId, placeholderButtons, serve } from '../support/engines/scenario';

// docs/protocol.md section 5b in the engine of this run (PAGEPULSE_ENGINE), against both built
// bundles: cookies cleared when consent goes, a revision asks again, "load once / always allow".
// The embeds here name their service with data-service and are served by the test server itself
// (no driver here can answer for a foreign host; the host match is covered in Chromium,
// test/browser/consent-services.test.ts).
const SEED = '/__seed.html';
const suite = useEngine((server) => {
  server.file('/vendor/ad.js', "(window.order = window.order || []).push('ad');", 'text/javascript');
  server.file('/vendor/stats.js', "(window.order = window.order || []).push('stats');", 'text/javascript');
  server.page('/embed.html', '<!doctype html><title>Video</title><p>Video</p>');
  // sets every query parameter as a cookie of the origin (path=/), as a page's own scripts would
  server.page(SEED, `<!doctype html><title>seed</title><script src="${SEED}.js"></script>`);
  server.file(
    `${SEED}.js`,
    "new URLSearchParams(location.search).forEach(function (v, k) { document.cookie = k + '=' + v + '; path=/; SameSite=Lax'; });",
    'text/javascript',
  );
});

const EMBEDS = `<iframe data-category="4" data-service="youtube" data-src="/embed.html?yt1" title="Film 1"></iframe>
<iframe data-category="4" data-service="youtube" data-src="/embed.html?yt2" title="Film 2"></iframe>
<iframe data-category="4" data-service="vimeo" data-src="/embed.html?vimeo" title="Film 3"></iframe>`;

/** A fresh page whose origin holds `cookies`, then at `path`. */
async function withCookies(path: string, cookies: Record<string, string>): Promise<EnginePage> {
  const page = await suite.open(`${SEED}?${new URLSearchParams(cookies).toString()}`);
  await page.goto(`${suite.server.origin}${path}`);
  return page;
}
const ready = (page: EnginePage) => expect.poll(() => page.evaluate(() => window.PagePulse !== undefined)).toBe(true);
/** Run `act` (which reloads the page) and wait for the new document to be loaded. */
async function reloadedBy(page: EnginePage, act: () => Promise<unknown>): Promise<void> {
  const before = await documentId(page);
  await act();
  // (loadedDocumentId answers only once the document has loaded)
  await expect.poll(() => loadedDocumentId(page), { timeout: 10_000 }).not.toBeOneOf(['', before]);
}
const srcs = (page: EnginePage) =>
  page.evaluate(() => Array.from(document.querySelectorAll('iframe')).map((f) => f.getAttribute('src')));
const bannerOpen = (page: EnginePage) =>
  page.evaluate(() => Boolean(document.querySelector('pagepulse-consent')?.shadowRoot?.querySelector('.banner')));

for (const bundle of BUNDLES) {
  describe(`services, clearing, revision (${bundle.name} bundle)`, () => {
    const at = (name: string) => `/${bundle.name}/${name}.html`;

    it('set({3: false}) clears _ga, _ga_ABC123, _gid; set({4: false}) clears _fbp; keep=1 stays; a decline clears _ga at start-up', async () => {
      const path = serve(suite.server, at('clear'), bundle.file);
      const page = await withCookies(path, { ...ALLOW_ALL, ...TRACKING, keep: '1' });
      await ready(page);
      // polled: WebKitWebDriver's cookie list once came back empty right after the load (the seed
      // page's document.cookie writes not yet in the store it reads); the cookies must be there
      await expect.poll(() => page.cookies()).toMatchObject(TRACKING);
      await reloadedBy(page, () => page.evaluate(() => window.PagePulse!.consent.set({ 3: false })));
      let jar = await page.cookies();
      expect(['_ga', '_ga_ABC123', '_gid'].filter((name) => name in jar)).toEqual([]);
      expect(jar).toMatchObject({ _fbp: TRACKING._fbp, keep: '1' });
      await ready(page);
      await reloadedBy(page, () => page.evaluate(() => window.PagePulse!.consent.set({ 4: false })));
      jar = await page.cookies();
      expect('_fbp' in jar).toBe(false);
      expect(jar).toMatchObject({ keep: '1', cookieconsent_categories: '1.2' });

      const denied = await withCookies(path, { cookieconsent_status: 'deny', cookieconsent_categories: '1', _ga: 'GA1.1.1.1' });
      await ready(denied);
      expect('_ga' in (await denied.cookies())).toBe(false);
    });

    it('data-revision="2" over an older choice shows the banner and runs nothing of 3 and 4; a choice sticks; revision 3 asks again', async () => {
      const body = `<iframe data-category="4" data-src="/embed.html" title="Video"></iframe>
<script type="text/plain" data-category="4" data-src="/vendor/ad.js"></script>
<script type="text/plain" data-category="3" data-src="/vendor/stats.js"></script>`;
      const path = serve(suite.server, at('rev2'), bundle.file, { body, attrs: { 'data-revision': '2' } });
      const page = await withCookies(path, ALLOW_ALL);
      await expect.poll(() => bannerOpen(page)).toBe(true);
      expect(await page.evaluate(() => window.PagePulse!.consent.get().chosen)).toBe(false);
      expect(await page.evaluate(() => (window as unknown as { order?: string[] }).order ?? null)).toBeNull();
      expect(await srcs(page)).toEqual([null]);
      expect(suite.server.calls('stream.display').filter((c) => c.body.includes(encodeURIComponent(path)))).toEqual([]);

      // the banner says why it is back; the choice only adds: released in place
      expect(await page.evaluate(() => document.querySelector('pagepulse-consent')!.shadowRoot!.textContent)).toContain(
        'Wir haben unsere Hinweise geändert',
      );
      expect(await clickAndWatch(page, '.actions button:nth-child(3)', 'pagepulse-consent', 1500)).toBe(false);
      expect(await page.cookies()).toMatchObject({ cookieconsent_revision: '2', cookieconsent_categories: '1.2.3.4' });
      expect(await bannerOpen(page)).toBe(false);
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { order?: string[] }).order ?? null))
        .toEqual(['ad', 'stats']);

      const next = serve(suite.server, at('rev3'), bundle.file, { body, attrs: { 'data-revision': '3' } });
      await page.goto(`${suite.server.origin}${next}`);
      await expect.poll(() => bannerOpen(page)).toBe(true);
    });

    it('a YouTube placeholder: "Einmal laden" loads that one, stores and logs nothing; "Immer erlauben" loads all YouTube, not Vimeo, and is remembered', async () => {
      const path = serve(suite.server, at('services'), bundle.file, { body: EMBEDS });
      const page = await withCookies(path, DECLINED_MARKETING);
      await expect
        .poll(() => placeholderButtons(page))
        .toEqual([
          'Einmal laden',
          'Immer erlauben: YouTube',
          'Einmal laden',
          'Immer erlauben: YouTube',
          'Einmal laden',
          'Immer erlauben: Vimeo',
        ]);
      const since = suite.server.requests.length;
      // by keyboard: Tab reaches the first placeholder's first button, Enter loads that element only
      const focused = () => page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.textContent ?? null);
      await page.press('Tab');
      if ((await focused()) !== 'Einmal laden') await page.press('Tab'); // past the provider's privacy link, where it has one
      expect(await focused()).toBe('Einmal laden');
      await page.press('Enter');
      await expect.poll(() => srcs(page)).toEqual(['/embed.html?yt1', null, null]);
      expect(await page.cookies()).toEqual(DECLINED_MARKETING);
      expect(consentLogs(suite.server, since)).toEqual([]);
      await page.reload();
      await expect.poll(() => srcs(page)).toEqual([null, null, null]);

      const origin = await documentId(page);
      await page.click('button:nth-of-type(2)', '.gdprlock-placeholder');
      await expect.poll(() => srcs(page)).toEqual(['/embed.html?yt1', '/embed.html?yt2', null]);
      expect(await documentId(page)).toBe(origin);
      expect(await page.cookies()).toMatchObject({ ...DECLINED_MARKETING, pagepulse_services: 'youtube' });
      await page.reload();
      await expect.poll(() => srcs(page)).toEqual(['/embed.html?yt1', '/embed.html?yt2', null]);
      expect(await placeholderButtons(page)).toEqual(['Einmal laden', 'Immer erlauben: Vimeo']);
    });
  });
}
