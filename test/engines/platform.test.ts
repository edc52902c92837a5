import { describe, expect, it } from 'vitest';
import { COUNT_ATTACHMENTS } from '../support/browser';
import { BUNDLES, useEngine } from '../support/engines';
import { serve, shadowText, sleep } from '../support/engines/scenario';
import { componentAnswer } from '../support/server';

/** Absence window: CSP violations are reported asynchronously; none may come in it. */
const NO_VIOLATION_MS = 600;
/** Measuring window: calls counted over it tell one loop (about 5) from two (about 10). */
const COUNT_WINDOW_MS = 2300;
/** Absence window: after destroy() no heartbeat or keep-alive leaves. */
const NOTHING_AFTER_DESTROY_MS = 1200;

// The page-error probe itself, and the platform parts (notifications, strict CSP, boot, destroy)
// in the engine of this run (PAGEPULSE_ENGINE), against both built bundles.
const suite = useEngine((server) => {
  server.file('/__count.js', COUNT_ATTACHMENTS, 'text/javascript');
});

const MODULE = '<div id="jes_mod"><span class="badge" data-bind="visitors">0</span></div>';
/** The component's answers as the real server gives them (test/support/server.ts), with these settings and parts. */
const stream = componentAnswer;
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'";
const beats = (path: string) => suite.server.calls('stream.display').filter((c) => c.body.includes(encodeURIComponent(path)));

describe('the page-error probe', () => {
  it('reports a thrown error, an unhandled rejection and a CSP violation, also across a reload', async () => {
    suite.server.file(
      '/throws.js',
      "setTimeout(function () { throw new TypeError('absichtlich'); }, 0); Promise.reject(new Error('verworfen'));",
      'text/javascript',
    );
    suite.server.page(
      '/probe.html',
      '<!doctype html><html><head><title>probe</title><script src="/throws.js"></script></head><body><script>window.inline = 1</script></body></html>',
      {
        'content-security-policy': CSP,
      },
    );
    const page = await suite.open('/probe.html');
    const expected = [
      expect.stringMatching(/^\/probe\.html error (TypeError: )?.*absichtlich/),
      expect.stringMatching(/^\/probe\.html unhandled rejection Error: verworfen/),
      expect.stringMatching(/^\/probe\.html csp violation script-src/),
    ];
    await expect.poll(() => [...suite.server.pageErrors].sort(), { timeout: 5000 }).toEqual(expect.arrayContaining(expected));
    expect(await page.evaluate(() => (window as unknown as { __pageErrors: string[] }).__pageErrors.length)).toBe(3);
    await page.reload();
    await expect.poll(() => suite.server.pageErrors.length, { timeout: 5000 }).toBe(6);
    suite.server.pageErrors.splice(0); // seen: the suite's after-each check would fail on them
  });
});

for (const bundle of BUNDLES) {
  describe(`platform (${bundle.name} bundle)`, () => {
    const at = (name: string) => `/${bundle.name}/${name}.html`;

    it('notifications: a polite live region at the top centre, text as text, closed by time and by their button', async () => {
      const page = await suite.open(serve(suite.server, at('notify'), bundle.file, { attrs: { 'data-consent': 'off' } }));
      await expect.poll(() => page.evaluate(() => typeof window.PagePulse)).toBe('object');
      await page.evaluate(() => window.PagePulse!.notify('Erste Nachricht', { timeout: 1000 }));
      await expect.poll(() => shadowText(page, 'pagepulse-notify')).toContain('Erste Nachricht');
      const box = await page.evaluate(() => {
        const root = document.querySelector('pagepulse-notify')!.shadowRoot!;
        const rect = root.querySelector('li')!.getBoundingClientRect();
        return {
          live: root.querySelector('ol')!.getAttribute('aria-live'),
          centre: rect.left + rect.width / 2,
          top: rect.top,
          width: innerWidth,
        };
      });
      expect(box.live).toBe('polite');
      expect(Math.abs(box.centre - box.width / 2)).toBeLessThan(2);
      expect(box.top).toBeLessThan(40);
      await expect.poll(() => shadowText(page, 'pagepulse-notify'), { timeout: 4000 }).not.toContain('Erste Nachricht');

      await page.evaluate(() => window.PagePulse!.notify('<img src=x onerror="window.__pwned=1">', { timeout: 0 }));
      await expect.poll(() => shadowText(page, 'pagepulse-notify')).toContain('<img src=x');
      await page.click('li button', 'pagepulse-notify');
      await expect
        .poll(() =>
          page.evaluate(() => document.querySelector('pagepulse-notify')?.shadowRoot?.querySelectorAll('li').length ?? 0),
        )
        .toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
    });

    it("works under default-src 'self'; script-src 'self'; style-src 'self' without a violation", async () => {
      suite.server.on('stream.display', (r) =>
        stream(r, { daemonrefresh: 0.3, enable_debug: 1 }, { loading: [{ corefile: 'CSP', details: 'ok' }] }),
      );
      const path = at('csp');
      suite.server.page(
        path,
        `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>CSP</title></head>
<body>${MODULE}<button id="b">Knopf</button><script src="/dist/${bundle.file}" data-keepalive="400"></script></body></html>`,
        { 'content-security-policy': CSP },
      );
      const page = await suite.open(path, { consent: '1.2.3' });
      await expect.poll(() => beats(path).length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
      await expect.poll(() => shadowText(page, 'pagepulse-debug')).toContain('CSP');
      const before = suite.server.calls('stream.saveEntity').length;
      await page.click('#b');
      await expect.poll(() => suite.server.calls('stream.saveEntity').length).toBe(before + 1);
      await page.evaluate(() => window.PagePulse!.notify('Hallo'));
      await expect.poll(() => shadowText(page, 'pagepulse-notify')).toContain('Hallo');
      await sleep(NO_VIOLATION_MS);
      // the probe reports every violation; the after-each check fails the test on one
      expect(await page.evaluate(() => (window as unknown as { __pageErrors: string[] }).__pageErrors)).toEqual([]);
      // the shadow styles really apply (constructable stylesheets are not blocked)
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('pagepulse-debug')!).position)).toBe('fixed');
    });

    it('boots when injected after load (bookmarklet) and never twice', async () => {
      suite.server.on('stream.display', (r) => stream(r, { daemonrefresh: 0.5 }));
      const path = at('bookmarklet');
      suite.server.page(
        path,
        `<!doctype html><html lang="de"><head><title>b</title></head><body>${MODULE}<p>Seite</p></body></html>`,
      );
      const page = await suite.open(path, { consent: '1.2.3' });
      const inject = (src: string) =>
        page.evaluate(
          (s) =>
            new Promise((resolve) => {
              const tag = document.createElement('script');
              tag.src = s;
              tag.addEventListener('load', () => resolve(true));
              document.body.appendChild(tag);
            }),
          src,
        );
      await inject(`/dist/${bundle.file}`);
      await inject(`/dist/${bundle.file}?again`);
      await expect.poll(() => beats(path).length).toBeGreaterThan(0);
      const first = beats(path)[0]!;
      await sleep(COUNT_WINDOW_MS);
      // one loop at 0.5 s: about 5 calls in 2.3 s; two loops would make about 10. The window is
      // counted on the server's arrival times from the first call (a late poll does not widen it).
      const calls = beats(path);
      expect(calls.length).toBeGreaterThanOrEqual(3);
      expect(calls.filter((c) => c.at - first.at <= COUNT_WINDOW_MS).length).toBeLessThanOrEqual(6);
      expect(beats(path).filter((c) => c.body.includes('&initialize=true&'))).toHaveLength(1);
      expect(await page.evaluate(() => typeof window.PagePulse?.destroy)).toBe('function');
    });

    it('destroy() leaves no listener, timer, observer or host element behind and sends nothing more', async () => {
      suite.server.on('stream.display', (r) =>
        stream(r, { daemonrefresh: 0.3, enable_debug: 1 }, { loading: [{ corefile: 'a', details: 'b' }] }),
      );
      const path = at('destroy');
      serve(suite.server, path, bundle.file, {
        head: '<script src="/__count.js"></script>',
        body: MODULE,
        attrs: { 'data-keepalive': '500' },
      });
      const page = await suite.open(path, { consent: '1.2.3' });
      await expect.poll(() => beats(path).length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
      await page.evaluate(() => window.PagePulse!.notify('Hallo'));
      await expect.poll(() => page.evaluate(() => Boolean(document.querySelector('pagepulse-debug')))).toBe(true);
      type Attached = { listeners: string[]; timeouts: number; intervals: number; observers: number; hosts: number };
      const attached = () => page.evaluate(() => (window as unknown as { __attachments: () => Attached }).__attachments());
      const running = await attached();
      expect(running.listeners.length).toBeGreaterThan(0);
      expect(running.hosts).toBeGreaterThan(0);
      await page.evaluate(() => window.PagePulse!.destroy());
      // what destroy() takes down, waited for as state (an unmount may finish a task later)
      await expect.poll(attached).toEqual({ listeners: [], timeouts: 0, intervals: 0, observers: 0, hosts: 0 });
      expect(await page.evaluate(() => typeof window.PagePulse)).toBe('undefined');
      const sent = suite.server.calls('stream.display').length + suite.server.calls('com_ajax').length;
      await sleep(NOTHING_AFTER_DESTROY_MS);
      expect(suite.server.calls('stream.display').length + suite.server.calls('com_ajax').length).toBe(sent);
    });
  });
}
