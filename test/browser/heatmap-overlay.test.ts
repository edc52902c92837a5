import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { BUNDLE, collectPageErrors, grantConsent } from '../support/browser';
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

/**
 * Whether the overlay shows a label tag at a point: an opaque dark pixel (the tag is dark, with
 * white text and outline) on one of its canvases.
 */
function labelTagAt(page: Page, x: number, y: number): Promise<boolean> {
  return page.evaluate(
    ([px, py]) =>
      [...(document.querySelector('pagepulse-heatmap')?.shadowRoot?.querySelectorAll('canvas') ?? [])].some((canvas) => {
        const box = canvas.getBoundingClientRect();
        const cx = Math.round(px - box.left);
        const cy = Math.round(py - box.top);
        if (cx < 0 || cy < 0 || cx >= canvas.width || cy >= canvas.height) return false;
        const [r, g, b, a] = canvas.getContext('2d')!.getImageData(cx, cy, 1, 1).data;
        return a! > 200 && r! < 90 && g! < 90 && b! < 90;
      }),
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
  // its label tag (the button's text and its clicks) right of the dot, none left of it
  expect(await labelTagAt(page, sub[0] + 15, sub[1] - 7)).toBe(true);
  expect(await labelTagAt(page, sub[0] - 40, sub[1] - 7)).toBe(false);

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

  // the page's language (German): the panel is one line on a phone; opened, it lists what is not drawn
  const panel = host.getByRole('region', { name: 'Heatmap: 2 Punkte, 1 nicht gezeichnet' });
  await expect.poll(() => panel.isVisible()).toBe(true);
  await panel.getByRole('button', { name: /^Heatmap:/ }).click();
  const hidden = panel.getByRole('list', { name: /^Nicht gezeichnet/ });
  expect(await panel.getByRole('heading', { name: /^Nicht gezeichnet/ }).textContent()).toBe(
    'Nicht gezeichnet: kein sichtbares Element auf dieser Seite (1)',
  );
  expect(await hidden.getByRole('listitem').allTextContents()).toEqual([
    'nav.site > ul.menu > li:nth-child(1) > a \u2014 3 Klicks',
  ]);
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

/**
 * The demo site's home page (real theme markup: a header over the hero that turns `position: fixed`
 * and slides in once the page is scrolled past 300 px, by a class its scroll handler toggles in the
 * next animation frame; below 720 px a "Menü" button that opens the menu by `aria-expanded`), with
 * the theme's own stylesheet and script, loading the bundle under test.
 */
const DEMO = readFileSync('demo/index.html', 'utf8').replace('/dist/pagepulse.iife.js', `/dist/${BUNDLE}`);
const MENU = 'nav.uk-navbar-container.site-nav>ul.uk-navbar-nav';
const DEMO_CLICKS = {
  clicks: [
    { selector: `header.site-header>${MENU}>li:nth-child(2)>a`, count: 6 },
    { selector: `header.site-header>${MENU}>li:nth-child(4)>a`, count: 4 },
    { selector: 'header.site-header>nav.uk-navbar-container.site-nav>a.brand', count: 2 },
    { selector: 'p.actions>a.uk-button.uk-button-primary', count: 3 },
  ],
};
const LINKS = ['#hauptmenue > li:nth-child(2) > a', '#hauptmenue > li:nth-child(4) > a'];

/** Screenshots of the overlay for a person to look at, saved into PAGEPULSE_OVERLAY_SHOTS when it names a folder. */
const SHOTS = process.env.PAGEPULSE_OVERLAY_SHOTS;
const shoot = async (page: Page, name: string): Promise<void> => {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};

async function openDemo(width: number, hash = '#pagepulse-heatmap'): Promise<Page> {
  server.page('/', DEMO);
  server.file('/assets/site.css', readFileSync('demo/assets/site.css', 'utf8'), 'text/css');
  server.file('/assets/site.js', readFileSync('demo/assets/site.js', 'utf8'), 'text/javascript');
  server.file('/api/clicks', JSON.stringify(DEMO_CLICKS), 'application/json');
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 768 } });
  await grantConsent(context, server.origin, '1.2');
  const page = await context.newPage();
  // the admin area's link: the bundle draws the overlay on load
  await page.goto(`${server.origin}/${hash}`);
  await page.locator('pagepulse-heatmap[data-dots]').waitFor({ state: 'attached' });
  return page;
}

/** Whether the overlay is red at the centre of each of these elements (as the eye sees it, now). */
async function dotsOn(page: Page, selectors: string[]): Promise<boolean> {
  for (const selector of selectors) if (!((await overlayAlphaAt(page, ...(await centre(page, selector)))) > 100)) return false;
  return true;
}

it("draws the fixed header's dots right after a jump scroll (scrollTo, an anchor link), with no further scroll", async () => {
  const page = await openDemo(1366);
  const errors = collectPageErrors(page);
  const host = page.locator('pagepulse-heatmap');
  expect(await host.getAttribute('data-dots')).toBe('4');
  await expect.poll(() => dotsOn(page, LINKS)).toBe(true);

  // one jump: the theme makes the header fixed in the next frame and slides it in (an animation)
  await page.evaluate(() => window.scrollTo(0, 1500));
  await page.waitForFunction(() => scrollY === 1500 && document.querySelector('.site-header.is-sticky') !== null);
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await expect.poll(() => dotsOn(page, LINKS)).toBe(true);
  expect(await host.getAttribute('data-fixed-dots')).toBe('3');
  await shoot(page, 'overlay-1366-after-scrollTo');

  // back to the top, then an in-page anchor link of the hero (the header turns back, then fixed again)
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => document.querySelector('.site-header.is-sticky') === null);
  await expect.poll(() => dotsOn(page, LINKS)).toBe(true);
  await page.evaluate(() => document.querySelector<HTMLElement>('a[href="#galerie"].uk-button')!.click());
  await page.waitForFunction(() => scrollY > 300 && document.querySelector('.site-header.is-sticky') !== null);
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await expect.poll(() => dotsOn(page, LINKS)).toBe(true);

  // each dot is labelled with its element's text: the panel lists the same labels
  const panel = host.getByRole('region', { name: 'Heatmap: 4 Punkte' });
  expect(await panel.getByRole('button', { name: 'Heatmap: 4 Punkte' }).getAttribute('aria-expanded')).toBe('true');
  expect(await panel.getByRole('list', { name: 'Gezeichnet (4)' }).getByRole('listitem').allTextContents()).toEqual([
    'Galerie \u2014 6 Klicks',
    'Kontakt \u2014 4 Klicks',
    'Termin anfragen \u2014 3 Klicks',
    'Lichtwerk Fotografie \u2014 2 Klicks',
  ]);
  expect(errors).toEqual([]);
  await page.context().close();
});

it('draws dots on the links of the mobile menu once it is opened (390 px), and lists none as not drawn', async () => {
  const page = await openDemo(390, '#pagepulse-heatmap=en');
  const errors = collectPageErrors(page);
  const host = page.locator('pagepulse-heatmap');
  // the menu is closed: its two links have no box; the panel (English, as the admin asked) is one line
  expect(await host.getAttribute('data-dots')).toBe('2');
  expect(await host.getAttribute('data-hidden')).toBe('2');
  const toggle = host.getByRole('button', { name: 'Heatmap: 2 dots, 2 not drawn' });
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  const panelBox = (await host.getByRole('region').boundingBox())!;
  expect(panelBox.height).toBeLessThanOrEqual(48);
  expect(panelBox.width).toBeLessThanOrEqual(390 - 16);

  await page.getByRole('button', { name: 'Menü' }).click();
  await expect.poll(() => host.getAttribute('data-hidden')).toBe('0');
  expect(await host.getAttribute('data-dots')).toBe('4');
  await expect.poll(() => dotsOn(page, LINKS)).toBe(true);
  expect(await host.getByRole('button', { name: 'Heatmap: 4 dots' }).count()).toBe(1);
  expect(await host.evaluate((h) => h.shadowRoot!.textContent)).not.toContain('not drawn');
  await shoot(page, 'overlay-390-menu-open');

  // closed again: the links are listed as not drawn again
  await page.getByRole('button', { name: 'Menü' }).click();
  await expect.poll(() => host.getAttribute('data-hidden')).toBe('2');
  expect(errors).toEqual([]);
  await page.context().close();
});

it('has a panel that is used with the keyboard, moves out of the way, closes, and leaves axe nothing to report', async () => {
  const page = await openDemo(390);
  const host = page.locator('pagepulse-heatmap');
  const panel = host.getByRole('region');
  const toggle = panel.getByRole('button', { name: /^Heatmap: 2 Punkte/ });
  await toggle.focus();
  await page.keyboard.press('Enter');
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  expect(
    await panel
      .getByRole('list', { name: /^Nicht gezeichnet/ })
      .getByRole('listitem')
      .count(),
  ).toBe(2);
  await shoot(page, 'overlay-390-panel-open');
  expect(await axeViolations(page)).toEqual([]);
  // Escape closes the lists and keeps the focus on their button
  await page.keyboard.press('Escape');
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('aria-expanded'))).toBe(
    'false',
  );

  // at the bottom by default; moved to the top, the bottom of the phone's screen is free
  expect((await panel.boundingBox())!.y).toBeGreaterThan(700);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  expect(await panel.getByRole('button', { name: 'Nach unten schieben' }).count()).toBe(1);
  expect((await panel.boundingBox())!.y).toBeLessThan(20);
  await shoot(page, 'overlay-390-panel-top');

  // closed from the panel: the overlay is gone and the focus is back on the page
  await panel.getByRole('button', { name: 'Heatmap schließen' }).click();
  expect(await page.locator('pagepulse-heatmap').count()).toBe(0);
  await page.context().close();
});
