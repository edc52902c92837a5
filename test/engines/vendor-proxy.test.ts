import { describe, expect, it, onTestFinished } from 'vitest';
import { ENGINE, useEngine } from '../support/engines';
import { VENDOR_EMBEDS_SCRIPT } from '../support/vendor-proxy';
import { GTAG, MATOMO, META_PIXEL } from '../support/vendor-snippets';

// The vendor proxy in the engine of this run: vendor snippets pasted verbatim into a page of the
// test server reach the test's own stand-ins for the vendors' hosts, on the wire, and nothing else
// of the page changes. The consent scenarios count on exactly this.
const suite = useEngine(
  (server) => {
    server.file('/own.js', 'window.own = location.origin;', 'text/javascript');
    server.page(
      '/gtag-youtube.html',
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Vendors</title>
<script>${VENDOR_EMBEDS_SCRIPT}</script>
${GTAG}
<script src="/own.js"></script>
</head><body>
<iframe src="https://www.youtube.com/embed/abc" title="Film"></iframe>
</body></html>`,
    );
    server.page(
      '/meta-matomo.html',
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Vendors</title>
${META_PIXEL}
${MATOMO}
</head><body><p>Text</p></body></html>`,
    );
  },
  { vendors: true },
);
const runs = (page: { evaluate: <R>(fn: () => R) => Promise<R> }) => page.evaluate(() => window.__vendorRuns ?? []);

describe(`vendor proxy (${ENGINE})`, () => {
  it('the gtag tag and a YouTube iframe load through it, once each, and are recorded; the page origin stays direct', async () => {
    const page = await suite.open('/gtag-youtube.html');
    await suite.vendors.waitFor('www.youtube.com/embed/');
    await expect.poll(() => runs(page)).toEqual(['www.googletagmanager.com/gtag/js?id=G-TEST123']);
    await expect.poll(() => page.evaluate(() => window.__vendorEmbeds ?? [])).toEqual(['www.youtube.com/embed/abc']);
    const seen = suite.vendors.requests.map(({ scheme, host, path, method, dest }) => ({ scheme, host, path, method, dest }));
    expect(seen.sort((a, b) => a.host.localeCompare(b.host))).toEqual([
      { scheme: 'https', host: 'www.googletagmanager.com', path: '/gtag/js?id=G-TEST123', method: 'GET', dest: 'script' },
      { scheme: 'https', host: 'www.youtube.com', path: '/embed/abc', method: 'GET', dest: 'iframe' },
    ]);
    // the page's own script came from the test server, which the engine reached without the proxy
    expect(await page.evaluate(() => [location.origin, (window as unknown as { own?: string }).own])).toEqual([
      suite.server.origin,
      suite.server.origin,
    ]);
    expect(suite.vendors.loopback).toBe(0);
  });

  it("Meta's pixel runs fbevents.js, which sets _fbp; Matomo's protocol-relative matomo.js goes out as plain HTTP", async () => {
    const page = await suite.open('/meta-matomo.html');
    await expect
      .poll(async () => (await runs(page)).sort())
      .toEqual(['connect.facebook.net/en_US/fbevents.js', 'matomo.example.com/matomo.js']);
    expect((await page.cookies())._fbp).toMatch(/^fb\.1\.\d{13}\.\d+$/);
    expect(suite.vendors.matching('connect.facebook.net').map((r) => [r.scheme, r.path])).toEqual([
      ['https', '/en_US/fbevents.js'],
    ]);
    expect(suite.vendors.matching('matomo.example.com').map((r) => [r.scheme, r.path])).toEqual([['http', '/matomo.js']]);
  });

  it('a handler answers for a host instead of the default: a 404 gtag.js is recorded on the wire and never runs', async () => {
    onTestFinished(suite.vendors.on('www.googletagmanager.com/gtag/', () => ({ status: 404, body: 'gone' })));
    const page = await suite.open('/gtag-youtube.html');
    await suite.vendors.waitFor('www.youtube.com/embed/');
    // Firefox requested the failed script twice once, on a busy CI run (likely its speculative
    // preload and then the parser's own load): what this test proves is which answer went out and that
    // it never ran, so every request the host got is that one, and at least one
    const paths = suite.vendors.matching('www.googletagmanager.com').map((r) => r.path);
    expect(paths.length).toBeGreaterThan(0);
    expect([...new Set(paths)]).toEqual(['/gtag/js?id=G-TEST123']);
    expect(await runs(page)).toEqual([]);
  });
});
