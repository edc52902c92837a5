import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectPageErrors, grantConsent } from '../support/browser';
import { ORIGINAL_HEATMAP_CLIENT } from '../support/original-heatmap';
import { fixturePage, type Recorded, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

let browser: Browser;
let server: TestServer;

/** The click call as protocol section 4 fixes it: the task in the query string. */
const SAVE = 'index.php?option=com_jrealtimeanalytics&task=stream.saveEntity&format=json';

/**
 * A plain page (no state classes) where every kind of element the differential test clicks
 * appears once: the `#vs_state` value has characters `$.param` and URLSearchParams encode apart.
 */
const PLAIN = `
<style>
  body { margin: 8px; font: 16px/1.2 sans-serif }
  .wide-button { width: 340px; padding: 0 10px; border: 2px solid #333; box-sizing: content-box; height: 30px }
  .bb { box-sizing: border-box; width: 360px; padding: 5px 10px; height: 40px; display: block }
  .fraction { width: 350.4px; height: 20px; display: block }
  .too-wide { width: 351px; height: 20px; display: block }
  .inline-pad { padding: 3.3px 7.7px; border: 1.5px solid #999 }
  svg.icon { width: 24px; height: 24px }
  .list { width: 200px }
</style>
<input type="hidden" id="vs_state" value="Reiter 2 (offen)! ~*'">
<div class="container">
  <ul class="nav menu">
    <li class="item-101 2024"><a href="#eins">Eins</a></li>
    <li class="item-102"><a href="#zwei">Zwei</a></li>
    <li><a href="#drei">Drei</a></li>
    <li><a href="#vier" class="inline-pad">Vier</a></li>
  </ul>
  <p class="lead  intro">Text mit <span class="hl">Hervorhebung</span> und <em>Betonung</em>.</p>
  <ul class="list"><li class="row">a</li><li class="row">b</li><li class="row">c</li></ul>
  <button type="button" class="btn icon-button"><svg class="icon" viewBox="0 0 24 24"><path d="M0 0h10v24H0z" fill="#c00"/><path class="right" d="M14 0h10v24H14z" fill="#00c"/></svg></button>
  <button type="button" class="wide-button">340 px Inhalt, 20 px Polster</button>
  <span class="bb">border-box 360 px, Inhalt 340 px</span>
  <span class="fraction">350,4 px</span>
  <span class="too-wide">351 px</span>
  <table class="grid"><tr><td>1</td><td class="x[y] cell">2</td></tr></table>
  <label for="cb" class="check-label">Haken</label> <input type="checkbox" id="cb" class="form-check">
  <img class="thumb" width="40" height="30" alt="Bild" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='40' height='30'/%3E">
</div>`;

/** The elements clicked, as Playwright locators, and whether the original records them. */
const TARGETS: Array<[string, boolean]> = [
  ['ul.nav > li:nth-child(3) > a', true],
  ['ul.nav > li:nth-child(1) > a', true],
  ['ul.nav > li:nth-child(4) > a', true], // inline box with fractional padding and border
  ['span.hl', true],
  ['p.lead em', true],
  ['ul.list > li:nth-child(2)', true], // siblings with equal classes
  ['svg.icon path.right', true], // SVG: className is an SVGAnimatedString, so no class
  ['svg.icon', true], // the gap between the paths
  ['button.wide-button', true], // border box 364 px > 350, content box 340 px: recorded
  ['span.bb', true], // border-box sizing: 360 - 20 padding = 340
  ['span.fraction', true], // jQuery's .width() starts from offsetWidth (350): recorded
  ['span.too-wide', false],
  ['td.cell', true], // `x[y]` left out, tbody in the chain
  ['label.check-label', true], // and the click it forwards to the checkbox
  ['img.thumb', true],
  ['div.container', false], // too wide
];

useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.page(
    '/dup.html',
    fixturePage({
      head: '<script src="/node_modules/jquery/dist/jquery.js"></script>',
      body: `<div class="card"><a class="more" href="#1">1</a></div><main><div class="card"><a class="more" href="#2">2</a></div></main><script>${ORIGINAL_HEATMAP_CLIENT}</script>`,
    }),
  );
  server.page(
    '/plain.html',
    fixturePage({
      head: '<script src="/node_modules/jquery/dist/jquery.js"></script>',
      body: `${PLAIN}<script>${ORIGINAL_HEATMAP_CLIENT}</script>`,
    }),
  );
});

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  await grantConsent(context, server.origin);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const start = server.calls('stream.display').length;
  await page.goto(`${server.origin}${path}`);
  await server.waitFor('stream.display', start + 1);
  await page.waitForTimeout(150); // the recorder starts after the first answer
  return { page, errors };
}

const ours = (): Recorded[] => server.calls('stream.saveEntity').filter((r) => r.url.startsWith('/index.php'));
const original = (): Recorded[] => server.calls('stream.saveEntity').filter((r) => r.url.startsWith('/orig/index.php'));

describe('click calls byte-equal to the original client (jQuery 1.12.4 in the page)', () => {
  it('sends the same URL, body (order, encoding, selector) and headers on a plain page', async () => {
    const { page, errors } = await open('/plain.html');
    const before = [ours().length, original().length];
    let compared = 0;
    for (const [target, recorded] of TARGETS) {
      const mine = ours().length;
      const theirs = original().length;
      await page.locator(target).first().click();
      if (!recorded) {
        await page.waitForTimeout(300);
        expect([ours().length - mine, original().length - theirs], target).toEqual([0, 0]);
        continue;
      }
      await expect.poll(() => original().length, { message: target }).toBeGreaterThan(theirs);
      await page.waitForTimeout(200); // a click forwarded by a label makes a second call
      await expect.poll(() => ours().length, { message: target }).toBe(original().length);
      // fetch and XHR may arrive in either order when one click makes two calls (the label)
      const sorted = (calls: Recorded[]) => calls.map((r) => r.body).sort();
      expect(sorted(ours().slice(mine)), target).toEqual(sorted(original().slice(theirs)));
      for (const call of ours().slice(mine)) expect(call.url, target).toBe(`/${SAVE}`);
      for (const call of original().slice(theirs)) expect(call.url, target).toBe(`/orig/${SAVE}`);
      for (const [a, b] of ours()
        .slice(mine)
        .map((call, i) => [call, original()[theirs + i]!] as const)) {
        expect(a.headers['content-type'], target).toBe(b.headers['content-type']);
        expect(a.headers['x-requested-with'], target).toBe(b.headers['x-requested-with']);
      }
      compared += original().length - theirs;
    }
    // the label's forwarded click on the checkbox adds one call on each side
    expect(compared).toBeGreaterThanOrEqual(14);
    expect(ours().length - before[0]!).toBe(original().length - before[1]!);
    const bodies = ours()
      .slice(before[0])
      .map((r) => new URLSearchParams(r.body).get('clicked_element'));
    expect(bodies).toContain("div.container>ul.nav.menu>li:nth-child(3)>a:Reiter 2 (offen)! ~*'");
    expect(bodies).toContain("div.container>ul.list>li.row:nth-child(2):Reiter 2 (offen)! ~*'");
    expect(bodies).toContain("div.container>button.btn.icon-button>svg>path:nth-child(2):Reiter 2 (offen)! ~*'");
    expect(bodies).toContain("div.container>button.wide-button:Reiter 2 (offen)! ~*'");
    expect(bodies).toContain("div.container>table.grid>tbody>tr>td.cell:Reiter 2 (offen)! ~*'");
    expect(ours()[before[0]!]!.body).toMatch(
      /^resource=heatmapclick&clicked_element=div.container%3Eul.nav.menu%3Eli%3Anth-child\(3\)%3Ea%3AReiter\+2\+\(offen\)!\+~\*'&nowpage=/,
    );
    expect(errors).toEqual([]);
  });

  it('measures the size filter on the content box exactly as jQuery 1.12 .width()/.height()', async () => {
    const { page, errors } = await open('/plain.html');
    const sizes = await page.evaluate(() => {
      const $ = (window as unknown as { jQuery: (e: Element) => { width(): number; height(): number } }).jQuery;
      return [
        'button.wide-button',
        'span.bb',
        'span.fraction',
        'span.too-wide',
        'svg.icon',
        'svg.icon path.right',
        'ul.nav > li:nth-child(4) > a',
      ].map((css) => {
        const element = document.querySelector(css)!;
        const box = element.getBoundingClientRect();
        return [css, $(element).width(), $(element).height(), box.width, box.height];
      });
    });
    // the cases the filter turns on: border box over the limit, content box not (and back)
    expect(sizes[0]!.slice(1, 4)).toEqual([340, 30, 364]);
    expect(sizes[1]!.slice(1, 4)).toEqual([340, 30, 360]);
    expect(sizes[2]![1]).toBe(350);
    expect(sizes[2]![3]).toBeGreaterThan(350);
    expect(sizes[3]![1]).toBe(351);
    expect(errors).toEqual([]);
  });

  it('departs only where the plain chain is not unique: body> (the original sends a selector that matches two)', async () => {
    const { page, errors } = await open('/dup.html');
    const mine = ours().length;
    const theirs = original().length;
    for (const n of [1, 2]) await page.locator(`a.more[href="#${n}"]`).click();
    await expect.poll(() => [ours().length - mine, original().length - theirs]).toEqual([2, 2]);
    const selectors = (calls: Recorded[]) => calls.map((r) => new URLSearchParams(r.body).get('clicked_element')).sort();
    expect(selectors(original().slice(theirs))).toEqual(['div.card>a.more', 'main>div.card>a.more']);
    expect(selectors(ours().slice(mine))).toEqual(['body>div.card>a.more', 'main>div.card>a.more']);
    expect(
      await page.evaluate(() => [
        document.querySelectorAll('div.card>a.more').length,
        document.querySelectorAll('body>div.card>a.more').length,
      ]),
    ).toEqual([2, 1]);
    expect(errors).toEqual([]);
  });
});
