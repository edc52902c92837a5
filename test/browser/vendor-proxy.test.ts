import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';
import { VENDOR_EMBEDS_SCRIPT } from '../support/vendor-proxy';
import { GTM, GTM_NOSCRIPT, VIMEO } from '../support/vendor-snippets';

// The vendor proxy under the Chromium suite (`useBrowserAndServer(ready, { vendors: true })`):
// what it records is what Chromium itself says the page sent to vendor hosts, no more, no less.
let browser: Browser;
let server: TestServer;
const suite = useBrowserAndServer(
  (b, s) => {
    browser = b;
    server = s;
    server.page(
      '/gtm-vimeo.html',
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Vendors</title>
<script>${VENDOR_EMBEDS_SCRIPT}</script>
${GTM}
</head><body>
${GTM_NOSCRIPT}
${VIMEO}
</body></html>`,
    );
  },
  { vendors: true },
);

it("records exactly the vendor requests Chromium reports for the page (GTM's snippet, Vimeo's embed and player API)", async () => {
  const page = await (await browser.newContext()).newPage();
  const sent: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.hostname !== '127.0.0.1') sent.push(url.host + url.pathname + url.search);
  });
  await page.goto(`${server.origin}/gtm-vimeo.html`);
  await expect
    .poll(() => page.evaluate(() => (window.__vendorRuns ?? []).sort()))
    .toEqual(['player.vimeo.com/api/player.js', 'www.googletagmanager.com/gtm.js?id=GTM-XXXX']);
  await expect
    .poll(() => page.evaluate(() => window.__vendorEmbeds))
    .toEqual(['player.vimeo.com/video/76979871?h=8272103f6e&badge=0&autopause=0&player_id=0&app_id=58479']);
  // the noscript iframe stays unloaded with scripts on; nothing else went out
  expect(sent.sort()).toEqual([
    'player.vimeo.com/api/player.js',
    'player.vimeo.com/video/76979871?h=8272103f6e&badge=0&autopause=0&player_id=0&app_id=58479',
    'www.googletagmanager.com/gtm.js?id=GTM-XXXX',
  ]);
  expect(suite.vendors.requests.map((r) => r.host + r.path).sort()).toEqual(sent);
  expect(suite.vendors.loopback).toBe(0);
});
