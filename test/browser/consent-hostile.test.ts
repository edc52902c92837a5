import { mkdirSync } from 'node:fs';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { BUNDLE, collectConsole, collectPageErrors } from '../support/browser';
import type { TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

// docs/protocol.md#5c against the built bundle: placeholders hold against the page's CSS, every
// consent surface is axe clean at a phone's and a desktop's width in both languages, the consent
// ID is shown and survives a withdrawal in a new browser session, and hostile pages (a throwing
// vendor snippet, 500 iframes, a redefined document.createElement) break nothing.

/** Screenshots for a human to look at (SHOTS=dir); nothing is written without it. */
const SHOTS = process.env.SHOTS;
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1366, height: 900 } };
/** The page's own CSS at its most hostile: buttons hidden, every property of every element unset. */
const HOSTILE_CSS = '<style>button{display:none!important} *{all:unset} iframe{display:block}</style>';

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.page('/embed.html', '<!doctype html><title>Video</title><p>Video</p>');
  server.file('/vendor/ok.js', '(window.order = window.order || []).push("ok");', 'text/javascript');
});

const page = (lang: string, head: string, body: string, attrs = '') => `<!doctype html>
<html lang="${lang}"><head><script src="/dist/${BUNDLE}"${attrs}></script><meta charset="utf-8"><title>Seite</title>${head}</head>
<body><main><h1>Seite</h1>${body}</main></body></html>`;
const EMBEDS = `<iframe data-service="youtube" data-category="4" data-src="/embed.html?yt" width="560" height="315" title="Film"></iframe>
<iframe data-category="4" data-src="/embed.html?other" width="400" height="200" title="Andere"></iframe>`;

/** A page of `html` at `path` in a new context, loaded; `beforeLoad` runs on the tab before it navigates. */
async function open(
  path: string,
  html: string,
  viewport = WIDTHS.desktop,
  query = '',
  beforeLoad: (tab: Page) => Promise<void> = async () => {},
) {
  server.page(path, html);
  const context = await browser.newContext({ viewport });
  const tab = await context.newPage();
  const errors = collectPageErrors(tab);
  const lines = collectConsole(tab);
  await beforeLoad(tab);
  await tab.goto(`${server.origin}${path}${query}`);
  return { context, tab, errors, lines };
}

/** A CPU profile as Chromium's Profiler.stop gives it (the fields read here). */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { url: string; functionName: string }; children?: number[] }>;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * The longest the code of `script` (a URL part) held the thread, in ms: its samples (one of its frames
 * on the stack, what it calls included, DOM methods too) joined into one hold across breaks of at
 * most `GAP_MS` of other work (the browser calling its next listener or observer callback in the
 * same task); the garbage collector's samples neither break nor add to a hold.
 */
function longestHold(profile: CpuProfile, script: string): number {
  const GAP_MS = 2;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const ours = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      if (byId.get(at)!.callFrame.url.includes(script)) return true;
    return false;
  };
  const deltas = profile.timeDeltas ?? [];
  let longest = 0;
  let hold = 0;
  let gap = 0;
  (profile.samples ?? []).forEach((id, i) => {
    // a sample's time is the delta to the next one
    const ms = (deltas[i + 1] ?? 0) / 1000;
    if (byId.get(id)!.callFrame.functionName === '(garbage collector)') return;
    if (ours(id)) {
      hold += (hold > 0 ? gap : 0) + ms;
      gap = 0;
      longest = Math.max(longest, hold);
    } else if ((gap += ms) > GAP_MS) {
      hold = 0;
      gap = 0;
    }
  });
  return longest;
}

async function shoot(tab: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await tab.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe("placeholders against the page's CSS, and axe on every consent surface", () => {
  for (const lang of ['de', 'en'] as const)
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      it(`${lang}, ${viewport.width} px: button{display:none} and *{all:unset} hide no placeholder button; banner, dialog and placeholders axe clean`, async () => {
        const { tab, errors } = await open(`/hostile-${lang}-${width}.html`, page(lang, HOSTILE_CSS, EMBEDS), viewport);
        const host = tab.locator('.gdprlock-placeholder').first();
        await host.waitFor();
        const buttons = host.getByRole('button');
        expect(await buttons.count()).toBe(2);
        for (const button of await buttons.all()) {
          const box = await button.boundingBox();
          expect(box && box.width > 20 && box.height > 20).toBe(true);
        }
        expect(await host.getByRole('link').count()).toBe(1); // the provider's privacy policy
        await tab.locator('pagepulse-consent .banner').waitFor();
        await shoot(tab, `placeholders-${lang}-${viewport.width}`);
        expect(await axeViolations(tab)).toEqual([]);
        await tab
          .locator('pagepulse-consent')
          .getByRole('button', { name: lang === 'de' ? 'Marketing' : 'Marketing' })
          .click();
        await tab.locator('pagepulse-consent dialog[open]').waitFor();
        await shoot(tab, `dialog-${lang}-${viewport.width}`);
        expect(await axeViolations(tab)).toEqual([]);
        // equal weight: decline and accept all look the same
        const look = (name: string) =>
          tab
            .locator('pagepulse-consent .actions button', { hasText: name })
            .first()
            .evaluate((b) => {
              const style = getComputedStyle(b);
              return [style.backgroundColor, style.color, style.borderColor, style.fontWeight, style.fontSize];
            });
        await tab.keyboard.press('Escape');
        expect(await look(lang === 'de' ? 'Ablehnen' : 'Decline')).toEqual(
          await look(lang === 'de' ? 'Alle akzeptieren' : 'Accept all'),
        );
        expect(errors).toEqual([]);
      });
    }
});

describe('the consent ID', () => {
  it('is shown in the dialog, sent with every log call, and the same on a withdrawal from a new browser session', async () => {
    const { context, tab } = await open('/id.html', page('de', '', EMBEDS));
    await tab.locator('pagepulse-consent .banner').waitFor();
    const since = server.requests.length;
    await tab.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren' }).click();
    await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'pagepulse_consent_id')?.value).toBeTruthy();
    const id = (await context.cookies()).find((c) => c.name === 'pagepulse_consent_id')!.value;
    await tab.evaluate(() => window.PagePulse!.consent.open());
    await tab.locator('pagepulse-consent').getByRole('button', { name: 'Statistiken' }).click();
    await expect.poll(() => tab.locator('pagepulse-consent dialog').textContent()).toContain(`Ihre Einwilligungs-ID: ${id}`);
    const logged = () => server.requests.slice(since).filter((r) => r.task?.startsWith('user.process')).length;
    // the acceptance's three log calls delivered before this browser session ends
    await expect.poll(logged, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const state = await context.storageState();
    await context.close();

    // a new browser session: the cookies as the browser kept them (365 days), nothing in memory
    const later = await browser.newContext({ storageState: { cookies: state.cookies, origins: [] } });
    const again = await later.newPage();
    await again.goto(`${server.origin}/id.html`);
    await again.waitForFunction(() => window.PagePulse !== undefined);
    await again.evaluate(() => window.PagePulse!.consent.revoke());
    await expect.poll(async () => (await later.cookies()).find((c) => c.name === 'cookieconsent_status')?.value).toBe('deny');
    const ids = () =>
      server.requests
        .slice(since)
        .filter((r) => r.task?.startsWith('user.process'))
        .map((r) => new URLSearchParams(r.body).get('consent_id'));
    // the log calls go one after another, after the cookie is written: wait for them, not for the cookie
    await expect.poll(() => ids().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6); // three for the acceptance, four for the withdrawal
    expect(new Set(ids())).toEqual(new Set([id]));
    await later.close();
  });
});

describe('hostile pages', () => {
  it('a vendor snippet that throws: the page sees its own error, the snippets after it still run, in order', async () => {
    const held = `<script data-category="3">(window.order = window.order || []).push('before');</script>
<script data-category="3">throw new Error('vendor snippet broke');</script>
<script type="text/plain" data-category="3" data-src="/vendor/ok.js"></script>
<script data-category="3">(window.order = window.order || []).push('after');</script>`;
    const { tab, errors } = await open('/throws.html', page('de', '', held));
    await tab.locator('pagepulse-consent .banner').waitFor();
    expect(await tab.evaluate(() => (window as unknown as { order?: string[] }).order ?? null)).toBeNull();
    await tab.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren' }).click();
    await expect
      .poll(() => tab.evaluate(() => (window as unknown as { order?: string[] }).order ?? null))
      .toEqual(['before', 'ok', 'after']);
    // the vendor's own error, as the page would see it without PagePulse; nothing of ours
    expect(errors).toEqual(['vendor snippet broke']);
  });

  // Chromium alone takes about 11 s to load a page of 500 iframes (docs/testing.md): its own bound.
  // Its parser holds the thread about 500 ms at a time on this page with or without the bundle (a
  // long task of the page is Chromium's; one of 1,002 ms under a loaded CI run failed a bound on it),
  // so the test bounds what is ours: the longest the bundle's code held the thread, from a CPU profile
  // of the load (8 to 17 ms here, 15 with two CPU hogs; the placeholders made in one pass at
  // DOMContentLoaded, each reading its iframe's box, held it 796 to 895 ms)
  it(
    '500 blocked iframes: placeholders for all, released at once, our code never holds the page',
    { timeout: 180_000 },
    async () => {
      const many = Array.from(
        { length: 500 },
        (_, i) =>
          `<iframe data-service="youtube" data-src="/embed.html?n=${i}" title="Film ${i}" width="200" height="120"></iframe>`,
      ).join('\n');
      let cdp: CDPSession | undefined;
      const { tab, errors } = await open(
        '/many.html',
        page('de', '', many, ' data-consent="on"'),
        WIDTHS.desktop,
        '',
        async (t) => {
          // The load under the profiler took over Playwright's default 30 s once on a loaded CI machine
          t.setDefaultNavigationTimeout(120_000);
          cdp = await t.context().newCDPSession(t);
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
          await cdp.send('Profiler.start');
        },
      );
      await expect.poll(() => tab.locator('.gdprlock-placeholder').count()).toBe(500);
      const { profile } = await cdp!.send('Profiler.stop');
      const held = longestHold(profile, `/dist/${BUNDLE}`);
      const longest = await tab.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let worst = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries()) worst = Math.max(worst, entry.duration);
            }).observe({ type: 'longtask', buffered: true });
            setTimeout(() => resolve(worst), 300);
          }),
      );
      console.log(
        `500 blocked iframes: our code held the thread at most ${held.toFixed(1)} ms at a time; the page's longest task ${Math.round(longest)} ms`,
      );
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThan(200);
      await tab.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren' }).click();
      await expect.poll(() => tab.locator('iframe[src]').count(), { timeout: 20_000 }).toBe(500);
      expect(await tab.locator('.gdprlock-placeholder').count()).toBe(0);
      expect(errors).toEqual([]);
    },
  );

  it('a page that redefines document.createElement (throwing) keeps its page and its held content', async () => {
    const redefine = `<script>document.createElement = function () { throw new Error('createElement is ours'); };</script>`;
    const body = `<script type="text/plain" data-category="3" data-src="/vendor/ok.js"></script>${EMBEDS}<p id="after">after</p>`;
    const { tab, errors, lines } = await open('/create.html', page('de', redefine, body), WIDTHS.desktop, '?pagepulse-debug=1');
    await tab.locator('#after').waitFor();
    await tab.waitForFunction(() => window.PagePulse !== undefined);
    // the held script runs through the prototype's createElement, which the page did not touch
    await tab.evaluate(() => window.PagePulse!.consent.set({ 3: true }));
    await expect.poll(() => tab.evaluate(() => (window as unknown as { order?: string[] }).order ?? null)).toEqual(['ok']);
    expect(await tab.locator('iframe').first().getAttribute('src')).toBeNull();
    expect(errors).toEqual([]);
    expect(lines.filter((l) => l.startsWith('error:') && !l.includes('createElement is ours'))).toEqual([]);
  });
});
