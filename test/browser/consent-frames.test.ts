import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUNDLE, collectPageErrors } from '../support/browser';
import type { TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

// A "friendly iframe": an iframe of the page's own without an address, into whose document a loader
// appends or writes a vendor script (Zendesk's and Olark's widget loaders, ad tags), which then runs
// in the iframe's window. Its DOM methods are its window's own, which the bundle's wrappers were not:
// before stop 57 Google's tag ran before a choice in every load, each loader, both builds. The watch
// goes into such iframes (src/platform/watch.ts): their insertion methods wrapped, their document
// observed, the markup hold in their window.

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});

const TAG = 'https://www.googletagmanager.com/gtag/js?id=G-FRAME';
/** Loaders that put Google's tag into a friendly iframe; the page has `<iframe id="friend">` in its markup. */
const LOADERS: Record<string, string> = {
  // written into one a script made (the ad tags' way)
  written: `var f=document.createElement('iframe');f.style.display='none';document.head.appendChild(f);
var d=f.contentWindow.document;d.open();d.write('<script src="${TAG}&w=written"><\\/script>');d.close();`,
  // Zendesk's classic Web Widget loader: the script made by the iframe's document at its load
  onload: `var f=document.createElement('iframe');f.style.display='none';document.head.appendChild(f);
var d=f.contentWindow.document;d.open()._l=function(){var s=this.createElement('script');s.src='${TAG}&w=onload';this.body.appendChild(s)};
d.write('<body onload="document._l();">');d.close();`,
  // Zendesk's classic loader as it is: the iframe given \`javascript:false\`, put before the last script
  javascript: `var r=document.createElement('iframe');r.src='javascript:false';r.title='';(r.frameElement||r).style.cssText='display: none';
var d=document.getElementsByTagName('script');d=d[d.length-1];d.parentNode.insertBefore(r,d);var i=r.contentWindow,o=i.document;
o.open()._l=function(){var e=this.createElement('script');e.src='${TAG}&w=javascript';this.body.appendChild(e)};o.write('<body onload="document._l();">');o.close();`,
  // written into the one in the markup (Chromium gives it another document before this script runs)
  parsed: `var d=document.getElementById('friend').contentDocument;d.open();d.write('<script src="${TAG}&w=parsed"><\\/script>');d.close();`,
  appended: `var f=document.createElement('iframe');f.style.display='none';document.body.appendChild(f);
var s=f.contentDocument.createElement('script');s.src='${TAG}&w=appended';f.contentDocument.head.appendChild(s);`,
  // a friendly iframe in a friendly iframe
  nested: `var f=document.body.appendChild(document.createElement('iframe'));
var g=f.contentDocument.body.appendChild(f.contentDocument.createElement('iframe'));
var s=g.contentDocument.createElement('script');s.src='${TAG}&w=nested';g.contentDocument.head.appendChild(s);`,
};

/** A page with the tag first in <head> and `script` in its body, after an iframe without an address. */
const page = (script: string, consent = 'on') =>
  `<!doctype html><html lang="de"><head><script src="/dist/${BUNDLE}" data-consent="${consent}"></script><meta charset="utf-8"><title>Seite</title></head>
<body><main><h1>Seite</h1></main><iframe id="friend" hidden></iframe><script>${script}</script></body></html>`;

/** A first visit (no choice made); Google's tag answered by a script that counts its runs in the page. */
async function visit(path: string) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const errors = collectPageErrors(tab);
  const tags: string[] = [];
  await tab.route(/googletagmanager\.com/, (route) => {
    tags.push(route.request().url());
    return route.fulfill({ body: 'top.__gtag = (top.__gtag || 0) + 1', contentType: 'text/javascript' });
  });
  await tab.goto(`${server.origin}${path}`);
  // what would run before a choice has had the time to
  await tab.waitForTimeout(300);
  return { context, tab, errors, tags };
}
const runs = (tab: Page) => tab.evaluate(() => (window as { __gtag?: number }).__gtag ?? 0);
const choose = (tab: Page, name: string) => tab.locator('pagepulse-consent').getByRole('button', { name }).click();

describe('a vendor script put into a friendly iframe', () => {
  for (const [name, loader] of Object.entries(LOADERS))
    it(`${name}: never requested before a choice (3 loads); runs once after Alle akzeptieren`, { timeout: 60_000 }, async () => {
      server.page(`/frame-${name}.html`, page(loader));
      for (let load = 0; load < 3; load++) {
        const { context, tab, errors, tags } = await visit(`/frame-${name}.html`);
        expect({ load, tags: tags.length, runs: await runs(tab) }).toEqual({ load, tags: 0, runs: 0 });
        if (load === 0) {
          await choose(tab, 'Alle akzeptieren');
          await expect.poll(() => runs(tab)).toBe(1);
          // once: not again a while later
          await tab.waitForTimeout(300);
          expect(await runs(tab)).toBe(1);
          expect(tags).toEqual([`${TAG}&w=${name}`]);
        }
        expect(errors).toEqual([]);
        await context.close();
      }
    });

  it('after Ablehnen none runs; the page’s own script in such an iframe runs at once, as written', async () => {
    server.page(
      '/frame-own.html',
      page(`${LOADERS.appended}
var own=document.getElementById('friend').contentDocument;own.open();own.write('<p id="p">Text</p><script>top.__own=document.getElementById("p").textContent<\\/script>');own.close();`),
    );
    const { context, tab, errors, tags } = await visit('/frame-own.html');
    expect(await tab.evaluate(() => (window as { __own?: string }).__own)).toBe('Text');
    await choose(tab, 'Ablehnen');
    await tab.waitForTimeout(500);
    expect({ tags: tags.length, runs: await runs(tab) }).toEqual({ tags: 0, runs: 0 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an element named iframe outside HTML (SVG markup, createElementNS) breaks nothing; a friendly iframe after it is held', async () => {
    server.page(
      '/frame-foreign.html',
      page(`document.body.insertAdjacentHTML('beforeend', '<svg><iframe></iframe></svg>');
document.body.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'iframe'));
document.body.appendChild(document.createElementNS('urn:x', 'iframe'));
top.__after = document.querySelectorAll('iframe').length;
${LOADERS.appended}`).replace('<main>', '<main><svg><iframe></iframe></svg>'),
    );
    const { context, tab, errors, tags } = await visit('/frame-foreign.html');
    // the markup's and the four the script adds (three foreign, the friendly one after them)
    expect(await tab.evaluate(() => (window as { __after?: number }).__after)).toBe(5);
    expect({ tags: tags.length, runs: await runs(tab) }).toEqual({ tags: 0, runs: 0 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("with consent off a friendly iframe's DOM methods stay the browser's own and its script runs", async () => {
    server.page('/frame-off.html', page(LOADERS.appended, 'off'));
    const { context, tab, tags } = await visit('/frame-off.html');
    await expect.poll(() => runs(tab)).toBe(1);
    expect(tags).toHaveLength(1);
    const native = await tab.evaluate(() => {
      const frame = document.querySelectorAll('iframe')[1]!;
      const w = frame.contentWindow as Window & typeof globalThis;
      return [w.Node.prototype.appendChild, w.Element.prototype.append, w.Document.prototype.write].map((f) =>
        String(f).includes('[native code]'),
      );
    });
    expect(native).toEqual([true, true, true]);
    await context.close();
  });
});
