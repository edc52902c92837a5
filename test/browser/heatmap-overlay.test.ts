import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { collectPageErrors, grantConsent } from '../support/browser';
import { fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});

/**
 * A page with a `position: fixed` header (a link inside it, at its right end), a mobile menu in
 * that header that is collapsed (display:none) below 720 px, a sticky bar further down and a tall
 * body to scroll. The collector's click list (`/api/clicks`, answered by the test server for any
 * page) names all of them, and a selector of another layout.
 */
const PAGE = fixturePage({
  head: `<style>
  body { margin: 0; font: 16px sans-serif; }
  .bar { position: fixed; top: 0; left: 0; right: 0; height: 60px; background: #222; display: flex; align-items: center; z-index: 5; }
  .bar .cta { margin-left: auto; margin-right: 40px; color: #fff; padding: 10px 16px; }
  .menu { display: flex; gap: 8px; margin: 0; padding: 0; list-style: none; }
  .menu a { color: #fff; }
  @media (max-width: 719px) { .menu { display: none; } }
  main { padding-top: 60px; }
  .filler { height: 900px; }
  .sub { position: sticky; top: 60px; height: 40px; background: #ddd; }
  .sub button { margin-left: 120px; }
  .tail { height: 3000px; }
</style>`,
  body: `<header class="bar"><nav class="site"><ul class="menu"><li><a href="#a">Start</a></li><li><a href="#b">Kontakt</a></li></ul></nav><a class="cta" href="#c">Anfrage</a></header>
<main><p>Inhalt</p><div class="filler"></div><div class="sub"><button type="button" id="sub-action">Filter</button></div><div class="tail"></div></main>`,
});

const CLICKS = {
  clicks: [
    { selector: 'header.bar > a.cta', count: 5 },
    { selector: 'nav.site > ul.menu > li:nth-child(1) > a', count: 3 },
    { selector: '#sub-action', count: 2 },
    { selector: '#from-another-layout', count: 9 },
  ],
};

/**
 * How red the overlay is at a point of the viewport, as the eye sees it: the largest alpha of the
 * overlay's canvases at that screen point, whatever canvas (page-sized or viewport-sized) it is on.
 */
function overlayAlphaAt(page: Page, x: number, y: number): Promise<number> {
  return page.evaluate(
    ([px, py]) => {
      let alpha = 0;
      for (const canvas of document.querySelector('pagepulse-heatmap')?.shadowRoot?.querySelectorAll('canvas') ?? []) {
        const box = canvas.getBoundingClientRect();
        const cx = Math.round(px - box.left);
        const cy = Math.round(py - box.top);
        if (cx < 0 || cy < 0 || cx >= canvas.width || cy >= canvas.height) continue;
        const [red, , , a] = canvas.getContext('2d')!.getImageData(cx, cy, 1, 1).data;
        if (red! > 150) alpha = Math.max(alpha, a!);
      }
      return alpha;
    },
    [x, y],
  );
}

/** The centre of an element in viewport coordinates. */
async function centre(page: Page, selector: string): Promise<[number, number]> {
  return page.evaluate((sel) => {
    const box = document.querySelector(sel)!.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2] as [number, number];
  }, selector);
}

async function open(width: number, consent: boolean): Promise<Page> {
  server.page('/overlay.html', PAGE);
  server.file('/api/clicks', JSON.stringify(CLICKS), 'application/json');
  const context = await browser.newContext({ viewport: { width, height: 700 } });
  if (consent) await grantConsent(context, server.origin);
  const page = await context.newPage();
  await page.goto(`${server.origin}/overlay.html`);
  await page.waitForFunction(() => !!window.PagePulse);
  return page;
}

it('keeps the dots of a fixed header and a sticky bar on them while the page scrolls', async () => {
  const page = await open(1024, true);
  const errors = collectPageErrors(page);
  await page.evaluate(() => window.PagePulse!.heatmap.show());
  const host = page.locator('pagepulse-heatmap');
  expect(await host.getAttribute('data-dots')).toBe('3');

  const cta = await centre(page, 'header.bar > a.cta');
  expect(await overlayAlphaAt(page, ...cta)).toBeGreaterThan(100);
  // the sticky bar, still in its place in the flow (below the fold at scroll 0)
  await page.evaluate(() => window.scrollTo(0, 500));
  await page.waitForFunction(() => scrollY === 500);
  const sub = await centre(page, '#sub-action');
  expect(sub[1]).toBeGreaterThan(300);
  await expect.poll(() => overlayAlphaAt(page, ...sub)).toBeGreaterThan(100);
  await expect.poll(() => overlayAlphaAt(page, ...cta)).toBeGreaterThan(100);

  await page.evaluate(() => window.scrollTo(0, 1500));
  await page.waitForFunction(() => scrollY === 1500);
  // the header has not moved on the screen; the sticky bar is stuck under it
  expect(await centre(page, 'header.bar > a.cta')).toEqual(cta);
  const stuck = await centre(page, '#sub-action');
  expect(await page.evaluate(() => document.querySelector('.sub')!.getBoundingClientRect().top)).toBe(60);
  expect(stuck[1]).toBeLessThan(100);
  await expect.poll(() => overlayAlphaAt(page, ...cta)).toBeGreaterThan(100);
  await expect.poll(() => overlayAlphaAt(page, ...stuck)).toBeGreaterThan(100);
  // and nothing is left where the header's dot was drawn at scroll 0 (now 1500 px up the page)
  expect(await overlayAlphaAt(page, cta[0], cta[1] + 400)).toBe(0);

  await page.evaluate(() => window.scrollTo(0, 700));
  await page.waitForFunction(() => scrollY === 700);
  await expect.poll(() => overlayAlphaAt(page, ...cta)).toBeGreaterThan(100);
  expect(errors).toEqual([]);
});

it('lists a link of the collapsed mobile menu beside the overlay instead of drawing it at (0, 0)', async () => {
  const page = await open(390, true);
  const errors = collectPageErrors(page);
  expect(await page.locator('ul.menu a').first().isVisible()).toBe(false);
  await page.evaluate(() => window.PagePulse!.heatmap.show());
  const host = page.locator('pagepulse-heatmap');
  expect(await host.getAttribute('data-dots')).toBe('2');
  expect(await overlayAlphaAt(page, 3, 3)).toBe(0);
  expect(await overlayAlphaAt(page, 10, 10)).toBe(0);

  const panel = host.getByRole('region', { name: /no box/ });
  await expect.poll(() => panel.isVisible()).toBe(true);
  expect(await panel.getByRole('heading').textContent()).toBe('Not drawn: no box on this page (1)');
  const items = await panel.getByRole('listitem').allTextContents();
  expect(items).toEqual(['nav.site > ul.menu > li:nth-child(1) > a \u2014 3 clicks']);
  // a selector that matches nothing here (another layout) is neither drawn nor listed
  expect(await host.evaluate((h) => h.shadowRoot!.textContent)).not.toContain('from-another-layout');
  // the header's dot is on the header on the narrow screen too
  expect(await overlayAlphaAt(page, ...(await centre(page, 'header.bar > a.cta')))).toBeGreaterThan(100);

  await page.evaluate(() => window.PagePulse!.heatmap.hide());
  expect(await page.locator('pagepulse-heatmap').count()).toBe(0);
  expect(errors).toEqual([]);
});

it('makes the consent banner wait while the overlay is open, and brings it back on hide()', async () => {
  const page = await open(1024, false);
  const banner = page.locator('pagepulse-consent .banner');
  await expect.poll(() => banner.isVisible()).toBe(true);
  await page.evaluate(() => window.PagePulse!.heatmap.show());
  expect(await page.locator('pagepulse-heatmap').getAttribute('data-dots')).toBe('3');
  expect(await banner.isVisible()).toBe(false);
  // the page under the banner's place can be clicked: nothing of the banner is in the way
  const hit = await page.evaluate(() => document.elementFromPoint(innerWidth / 2, innerHeight - 20)?.localName);
  expect(hit).not.toBe('pagepulse-consent');

  await page.evaluate(() => window.PagePulse!.heatmap.hide());
  expect(await banner.isVisible()).toBe(true);

  // shown again, then the bundle destroyed: the overlay goes with it
  await page.evaluate(() => window.PagePulse!.heatmap.show());
  expect(await banner.isVisible()).toBe(false);
  await page.evaluate(() => window.PagePulse!.destroy());
  expect(await page.locator('pagepulse-heatmap').count()).toBe(0);
});
