import { describe, expect, it } from 'vitest';
import { BUNDLES, useEngine } from '../support/engines';
import { enc, serve, shadowText, sleep } from '../support/engines/scenario';
import { componentAnswer, COUNT_ANSWERS } from '../support/server';

// The tracker in the engine of this run (PAGEPULSE_ENGINE), against both built bundles.
const suite = useEngine();

const MODULE = `<div id="jes_mod"><p>Online: <span class="badge" data-bind="users_onpage">0</span></p>
  <p>Besucher: <span class="badge" data-bind="visitors">0</span></p></div>`;
/** The component's answers as the real server gives them (test/support/server.ts), with these settings and parts. */
const stream = componentAnswer;
/** Absence window for "the hostile text ran nothing". */
const NOTHING_RUNS_MS = 300;
const XSS = '<img src=x onerror="window.__pwned=1">';
const GALLERY = `<main class="uk-container"><div class="uk-grid gallery">
  ${[1, 2, 3].map((n) => `<figure class="uk-card lazyload"><a href="#b${n}" class="tm-link"><span class="caption">Bild ${n}</span></a></figure>`).join('')}
  </div></main>`;
/** Heartbeats of one page (its address is in the body). */
const beats = (path: string) => suite.server.calls('stream.display').filter((c) => c.body.includes(encodeURIComponent(path)));

for (const bundle of BUNDLES) {
  describe(`tracker (${bundle.name} bundle)`, () => {
    const at = (name: string) => `/${bundle.name}/${name}.html`;

    it("heartbeat bodies byte for byte (protocol section 3), the device fields the page's own outer size", async () => {
      suite.server.on('stream.display', (r) => stream(r, { daemonrefresh: 0.2 }));
      const path = serve(suite.server, at('seite'), bundle.file, { body: MODULE });
      const page = await suite.open(`${path}?q=a b&x=(1)!*'~`, { consent: '1.2.3' });
      await expect.poll(() => beats(path).length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
      const [first, second, third] = beats(path);
      const href = await page.evaluate(() => location.href);
      const [width, height] = await page.evaluate(() => [window.outerWidth, window.outerHeight]);
      expect(first!.body).toBe(
        `task=stream.display&nowpage=${enc(href)}&initialize=true&module_available=1&device_width=${width}&device_height=${height}`,
      );
      // later calls: no initialize field at all and no device fields (docs/protocol.md#heartbeat)
      for (const later of [second!, third!])
        expect(later.body).toBe(`task=stream.display&nowpage=${enc(href)}&module_available=1`);
      // jQuery's $.param leaves ( ) ! * as they are (the browser itself sends ' as %27)
      expect(first!.body).toContain('(1)!*');
      expect(first!.body).not.toMatch(/%28|%29|%21|%2A/);
      expect(first!.method).toBe('POST');
      expect(first!.url).toBe('/index.php?option=com_jrealtimeanalytics&format=json');
      expect(first!.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=UTF-8');
      expect(first!.headers['x-requested-with']).toBe('XMLHttpRequest');
    });

    it('one page view per load: a reload starts exactly one more', async () => {
      suite.server.on('stream.display', (r) => stream(r, { daemonrefresh: 0.3 }));
      const path = serve(suite.server, at('views'), bundle.file);
      const page = await suite.open(path, { consent: '1.2.3' });
      // the beats come at 0.3 s: vitest's default 1 s poll is too short for three of them on a busy machine
      const wait = { timeout: 10_000 };
      await expect.poll(() => beats(path).length, wait).toBeGreaterThanOrEqual(2);
      await page.reload();
      await expect.poll(() => beats(path).filter((c) => c.body.includes('&initialize=true&')).length, wait).toBe(2);
      await expect.poll(() => beats(path).length, wait).toBeGreaterThanOrEqual(5);
      expect(beats(path).filter((c) => c.body.includes('&initialize=true&'))).toHaveLength(2);
    });

    it('writes the data-bind texts into the badges as text only', async () => {
      suite.server.on('stream.display', (r) =>
        stream(r, { daemonrefresh: 0.3 }, { 'data-bind': { users_onpage: '3', visitors: XSS, unknown_key: 'x' } }),
      );
      const page = await suite.open(serve(suite.server, at('badges'), bundle.file, { body: MODULE }), { consent: '1.2.3' });
      await expect
        .poll(() => page.evaluate(() => document.querySelector('#jes_mod [data-bind="users_onpage"]')!.textContent))
        .toBe('3');
      expect(await page.evaluate(() => document.querySelector('#jes_mod [data-bind="visitors"]')!.textContent)).toBe(XSS);
      expect(await page.evaluate(() => document.querySelectorAll('#jes_mod img').length)).toBe(0);
      await sleep(NOTHING_RUNS_MS); // absence window: the text never runs as markup
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
    });

    it('records a click with a selector that matches exactly the clicked element', async () => {
      suite.server.on('stream.display', (r) => stream(r, { daemonrefresh: 5 }));
      const path = serve(suite.server, at('gallery'), bundle.file, { body: GALLERY, head: COUNT_ANSWERS });
      const page = await suite.open(path, { consent: '1.2.3' });
      // the recorder starts once the tracker has read its first answer
      await expect.poll(() => page.evaluate(() => (window as unknown as { __answers: number }).__answers)).toBeGreaterThan(0);
      const before = suite.server.calls('stream.saveEntity').length;
      await page.click('figure:nth-child(2) .caption');
      await expect.poll(() => suite.server.calls('stream.saveEntity').length).toBe(before + 1);
      const save = suite.server.calls('stream.saveEntity')[before]!;
      // the original heatmap client's call: the task in the query string, resource=heatmapclick first
      expect(save.url).toBe('/index.php?option=com_jrealtimeanalytics&task=stream.saveEntity&format=json');
      expect(save.body.startsWith('resource=heatmapclick&clicked_element=')).toBe(true);
      const form = new URLSearchParams(save.body);
      expect(form.get('nowpage')).toBe(`${suite.server.origin}${path}`);
      const selector = form.get('clicked_element')!;
      const exact = await page.evaluate((sel) => {
        const found = document.querySelectorAll(sel);
        return found.length === 1 && found[0] === document.querySelector('figure:nth-child(2) .caption');
      }, selector);
      expect(exact, selector).toBe(true);
    });

    it('shows the network error in the debug box when the server is unreachable, and closes it', async () => {
      const page = await suite.open(
        serve(suite.server, at('debug'), bundle.file, { attrs: { 'data-debug': '1', 'data-base': 'http://127.0.0.1:9/' } }),
        { consent: '1.2.3' },
      );
      await expect
        .poll(() => shadowText(page, 'pagepulse-debug'), { timeout: 10_000 })
        .toContain('Netzwerkfehler beim Datenstream: ');
      expect(await shadowText(page, 'pagepulse-debug')).toContain('Datenstream (Client)');
      const box = await page.evaluate(() => ({
        top: document.querySelector('pagepulse-debug')!.shadowRoot!.querySelector('section')!.getBoundingClientRect().top,
        position: getComputedStyle(document.querySelector('pagepulse-debug')!).position,
      }));
      expect(box.position).toBe('fixed');
      expect(box.top).toBeLessThan(200);
      // watch for the close itself: a retry's error that reads differently from those shown opens
      // the box again (the same error is only counted on its line)
      await page.evaluate(() => {
        const root = document.querySelector('pagepulse-debug')!.shadowRoot!;
        const watch = new MutationObserver(() => {
          if (!document.querySelector('pagepulse-debug')?.shadowRoot?.querySelector('section'))
            (window as unknown as { __debugClosed: boolean }).__debugClosed = true;
        });
        watch.observe(root, { childList: true, subtree: true });
        watch.observe(document.documentElement, { childList: true, subtree: true });
      });
      await page.click('button.close', 'pagepulse-debug');
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __debugClosed?: boolean }).__debugClosed ?? false))
        .toBe(true);
    });
  });
}
