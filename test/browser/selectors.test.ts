import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUNDLE, collectPageErrors, grantConsent, jqueryVersion } from '../support/browser';
import { ORIGINAL_HEATMAP_CLIENT } from '../support/original-heatmap';
import { protostarPage } from '../support/protostar';
import { COUNT_ANSWERS_SCRIPT, fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

// The click selector of the default mode (`original`) against the original algorithm running in
// the same page on jQuery 1.12.4 (test/support/original-heatmap.ts: `$.trim`, `$.isNumeric`,
// `$parent.children(step)`, `$node.index()`), on Joomla's real protostar markup and on number-like
// classes; and the `stable` mode's state independence on the same markup (docs/protocol.md#click-selector).

let browser: Browser;
let server: TestServer;

/**
 * In the page: jQuery 1.12.4, the stand-in of the original client, what each client decided per
 * click (`__ours`: the bundle's `pagepulse:click` details, `__originalClicks`/`__originalElements`:
 * the stand-in's), and no navigation on a link (the page stays for the next click).
 */
const HEAD = `<script src="/node_modules/jquery/dist/jquery.js"></script>
<script>${COUNT_ANSWERS_SCRIPT}
window.__ours = [];
document.addEventListener('pagepulse:click', function (e) { window.__ours.push(e.detail); });
document.addEventListener('click', function (e) { e.preventDefault(); });</script>`;
const ORIGINAL = `<script>${ORIGINAL_HEATMAP_CLIENT}</script>`;

/** Elements of the protostar home page clicked, each once (some are over 350 x 50 and left out by both). */
const PROTOSTAR_TARGETS = [
  'ul.nav.menu li.current a', // the main menu's Home: `li.item-101.default.current.active`
  'ul.nav.menu li.current',
  'ul.breadcrumb li.active span', // `ul.breadcrumb>li.active>span`
  'ul.breadcrumb li:first-child',
  '#jes_mod span.badge[data-bind="visitors"]',
  '#jes_mod li.title span.badge',
  '#jes_mod ul:nth-of-type(2) li:nth-child(3)',
  'a.brand span.site-title',
  'h3.page-header',
  '#modlgn-username',
  'label[for="modlgn-remember"]', // and the click it forwards to the checkbox
  '#form-login-submit button',
  'ul.unstyled li:nth-child(2) a',
  '#back-top',
];

/** Number-like classes: `$.isNumeric` drops `7`, `1e3`, `+5`, `-5`, `0x1f`; `5px` and `Infinity` stay. */
const NUMBERS = `<div class="numbers">
  <b class="7">a</b><b class="1e3">b</b><b class="+5">c</b><b class="-5">d</b><b class="0x1f">e</b>
  <b class="Infinity">f</b><b class="5px">g</b><i class="x 7 1e3 +5 -5 0x1f Infinity">h</i><i class="y 0b11 NaN -Infinity">i</i>
</div>`;
const NUMBER_TARGETS = ['b.\\37', 'b.\\31 e3', 'b.\\+5', 'b.-\\35', 'b.\\30 x1f', 'b.Infinity', 'b.\\35 px', 'i.x', 'i.y'];

useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.page(
    '/protostar.html',
    protostarPage(server.origin, { head: HEAD + ORIGINAL, body: `<script src="/dist/${BUNDLE}"></script>` }),
  );
  server.page(
    '/protostar-stable.html',
    protostarPage(server.origin, { head: HEAD, body: `<script src="/dist/${BUNDLE}" data-selectors="stable"></script>` }),
  );
  server.page('/numbers.html', fixturePage({ head: HEAD, body: NUMBERS + ORIGINAL }));
});

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  await grantConsent(context, server.origin);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${server.origin}${path}`);
  // the recorder starts once the tracker has read its first answer
  await page.waitForFunction(() => (window as unknown as { __answers: number }).__answers > 0);
  expect(await jqueryVersion(page), 'jQuery in the page').toBe('1.12.4');
  return { page, errors };
}

/** Click each target once; returns, per recorded click, the bundle's selector, the original's, and whether the original's is valid CSS matching exactly its element. */
async function clickAll(page: Page, targets: string[]) {
  for (const target of targets) await page.locator(target).first().click();
  return page.evaluate(() => {
    const w = window as unknown as { __ours: string[]; __originalClicks: string[]; __originalElements: Element[] };
    return w.__originalClicks.map((original, i) => {
      let exact = false;
      try {
        const found = document.querySelectorAll(original);
        exact = found.length === 1 && found[0] === w.__originalElements[i];
      } catch {
        exact = false; // not valid CSS: the escaping departure applies
      }
      return { ours: w.__ours[i], original, exact };
    });
  });
}

describe('default selectors (`original`): byte-identical to the original algorithm on jQuery 1.12.4', () => {
  it("on Joomla's protostar menu, breadcrumb, module and login form", async () => {
    const { page, errors } = await open('/protostar.html');
    const clicks = await clickAll(page, PROTOSTAR_TARGETS);
    expect(await page.evaluate(() => (window as unknown as { __ours: string[] }).__ours.length)).toBe(clicks.length);
    expect(clicks.length).toBeGreaterThanOrEqual(10);
    for (const click of clicks) {
      expect(click.exact, click.original).toBe(true);
      expect(click.ours).toBe(click.original);
    }
    const ours = clicks.map((c) => c.ours);
    // the two selectors of the issue, as the original stored them
    expect(ours).toContain(
      'div.body>div.container>div.row-fluid>div.span3>div.well._menu>ul.nav.menu.mod-list>li.item-101.default.current.active>a',
    );
    expect(ours.some((s) => s!.endsWith('>ul.breadcrumb>li.active>span'))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('on number-like classes: `$.isNumeric` decides; `5px`, not an identifier, is escaped (the documented departure)', async () => {
    const { page, errors } = await open('/numbers.html');
    const clicks = await clickAll(page, NUMBER_TARGETS);
    expect(clicks).toHaveLength(NUMBER_TARGETS.length);
    const departures = clicks.filter((c) => !c.exact);
    // only `5px`: `b.5px` is no valid CSS; the bundle escapes it as CSS.escape does
    expect(departures).toEqual([{ ours: 'div.numbers>b.\\35 px', original: 'div.numbers>b.5px', exact: false }]);
    for (const click of clicks.filter((c) => c.exact)) expect(click.ours).toBe(click.original);
    expect(clicks.map((c) => c.original)).toEqual([
      'div.numbers>b:nth-child(1)',
      'div.numbers>b:nth-child(2)',
      'div.numbers>b:nth-child(3)',
      'div.numbers>b:nth-child(4)',
      'div.numbers>b:nth-child(5)',
      'div.numbers>b.Infinity',
      'div.numbers>b.5px',
      'div.numbers>i.x.Infinity',
      'div.numbers>i.y.NaN.-Infinity',
    ]);
    expect(errors).toEqual([]);
  });
});

describe('`stable` selectors (data-selectors="stable")', () => {
  it("leave out Joomla's current, active and alias-parent-active and stay the same when the state moves", async () => {
    const { page, errors } = await open('/protostar-stable.html');
    const menu = 'ul.nav.menu li.item-101 a';
    const crumb = 'ul.breadcrumb li:nth-child(2) span';
    await page.locator(menu).click();
    await page.locator(crumb).click();
    // the state moves: another item is current, the breadcrumb's last item is no longer active
    await page.evaluate(() => {
      const item = document.querySelector('ul.nav.menu li.item-101')!;
      item.classList.remove('current', 'active');
      item.classList.add('alias-parent-active');
      const other = item.cloneNode(true) as Element;
      other.className = 'item-102 current active';
      item.after(other);
      document.querySelector('ul.breadcrumb li:nth-child(2)')!.classList.remove('active');
      document.querySelector('ul.breadcrumb li:nth-child(1)')!.classList.add('active');
    });
    await page.locator(menu).click();
    await page.locator(crumb).click();
    const ours = await page.evaluate(() => (window as unknown as { __ours: string[] }).__ours);
    expect(ours).toEqual([
      'div.body>div.container>div.row-fluid>div.span3>div.well._menu>ul.nav.menu.mod-list>li.item-101.default>a',
      'div.body>div.container>div.row-fluid>main.span9>div:nth-child(4)>ul.breadcrumb>li:nth-child(2)>span',
      'div.body>div.container>div.row-fluid>div.span3>div.well._menu>ul.nav.menu.mod-list>li.item-101.default>a',
      'div.body>div.container>div.row-fluid>main.span9>div:nth-child(4)>ul.breadcrumb>li:nth-child(2)>span',
    ]);
    // each still names exactly its element
    for (const [selector, target] of [
      [ours[2]!, menu],
      [ours[3]!, crumb],
    ])
      expect(
        await page.evaluate(
          ([s, t]) => {
            const found = document.querySelectorAll(s!);
            return found.length === 1 && found[0] === document.querySelector(t!);
          },
          [selector, target],
        ),
        selector,
      ).toBe(true);
    expect(errors).toEqual([]);
  });
});
