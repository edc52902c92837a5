import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, grantConsent, launch } from '../support/browser';
import { removeDir, signIn, startCollector, type Harness } from '../support/collector';
import { serveBundleUnderTest } from '../support/demo';
import { COUNT_ANSWERS_SCRIPT } from '../support/server';

let browser: Browser;
let collector: Harness;

beforeAll(async () => {
  browser = await launch();
  // photos are larger than the component's 350 x 50 click limit: this collector accepts them
  collector = await startCollector({
    now: Date.now,
    settings: { daemonrefresh: 0.5, heatmap_max_valid_width: 2000, heatmap_max_valid_height: 2000 },
  });
});
afterAll(async () => {
  await browser.close();
  await collector.close();
  removeDir(collector.dbPath);
});

async function visitor(categories = '1.2.3'): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await serveBundleUnderTest(context);
  await grantConsent(context, collector.url, categories);
  return context;
}

/** Absence window: a 200 px wheel does not make the header sticky (its scroll handler ran by then). */
const NOT_STICKY_YET_MS = 300;
/** Absence window: a largest-contentful-paint candidate after the first one reported (the banner's, if it were one). */
const LATER_CANDIDATE_MS = 500;

const badge = (key: string) => `#jes_mod span.badge[data-bind="${key}"]`;

describe('demo site on the reference collector', () => {
  it('counts two browser contexts as two visitors in the badges', async () => {
    const one = await visitor();
    const two = await visitor();
    const a = await one.newPage();
    const b = await two.newPage();
    const errors = [...collectPageErrors(a), ...collectPageErrors(b)];
    await a.goto(`${collector.url}/`);
    await b.goto(`${collector.url}/`);
    await expect.poll(() => a.locator(badge('users_onpage')).textContent(), { timeout: 10_000 }).toBe('2');
    expect(await a.locator(badge('visitors')).textContent()).toBe('2');
    expect(Number(await a.locator(badge('users_total')).textContent())).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
    await one.close();
    await two.close();
  });

  it('stores a click on a gallery photo under a selector that matches it, and the overlay draws it', async () => {
    const context = await visitor();
    await context.addInitScript(COUNT_ANSWERS_SCRIPT);
    const page = await context.newPage();
    await page.goto(`${collector.url}/`);
    // the recorder starts once the tracker has read its first answer
    await page.waitForFunction(() => (window as unknown as { __answers: number }).__answers > 0);
    const photo = page.locator('.gallery figure:nth-child(2) img');
    await photo.scrollIntoViewIfNeeded();
    await photo.click();
    const address = `${collector.url}/`;
    const listed = async () => {
      const answer = (await (await fetch(`${collector.url}/api/clicks?page=${encodeURIComponent(address)}`)).json()) as {
        clicks: Array<{ selector: string; count: number }>;
      };
      return answer.clicks;
    };
    await expect.poll(async () => (await listed()).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [stored] = await listed();
    // the photo is a lightbox link: the click left the page (and still arrived); come back
    await page.goto(address);
    const same = await page.evaluate((sel) => {
      const found = document.querySelectorAll(sel);
      return [found.length, found[0] === document.querySelector('.gallery figure:nth-child(2) img')];
    }, stored!.selector);
    expect(same).toEqual([1, true]);
    expect(stored!.count).toBe(1);

    // the overlay also draws PagePulse's older clicks (`html > ... ::state`, task in the body,
    // resource=heatmap) and clicks with the original's `:state` suffix
    const older = await page.evaluate(async (href) => {
      const oldSelector = (element: Element): string => {
        const steps: string[] = [];
        for (let node: Element | null = element; node; node = node.parentElement) {
          const index = node.parentElement ? Array.from(node.parentElement.children).indexOf(node) + 1 : 0;
          steps.unshift(
            node.localName +
              Array.from(node.classList, (c) => `.${CSS.escape(c)}`).join('') +
              (index ? `:nth-child(${index})` : ''),
          );
        }
        return steps.join(' > ');
      };
      const post = (query: string, body: string) =>
        fetch(`/index.php?${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
          body,
        }).then((r) => r.status);
      const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
      return [
        await post(
          'option=com_jrealtimeanalytics&format=json',
          form({
            task: 'stream.saveEntity',
            resource: 'heatmap',
            clicked_element: `${oldSelector(document.querySelector('.gallery figure:nth-child(1) img')!)}::Tab2`,
            nowpage: href,
          }),
        ),
        await post(
          'option=com_jrealtimeanalytics&task=stream.saveEntity&format=json',
          form({ resource: 'heatmapclick', clicked_element: 'footer.site-footer:Galerie: offen', nowpage: href }),
        ),
      ];
    }, address);
    expect(older).toEqual([200, 200]);
    await page.evaluate(() => window.PagePulse!.heatmap.show());
    const drawn = await page.evaluate(() => document.querySelector('pagepulse-heatmap')?.getAttribute('data-dots'));
    expect(drawn).toBe('3');
    // the dot is really painted: a red pixel at the photo's centre
    const pixel = await page.evaluate(() => {
      const img = document.querySelector('.gallery figure:nth-child(2) img')!.getBoundingClientRect();
      const canvas = document.querySelector('pagepulse-heatmap')!.shadowRoot!.querySelector('canvas')!;
      const data = canvas
        .getContext('2d')!
        .getImageData(Math.round(img.left + img.width / 2 + scrollX), Math.round(img.top + img.height / 2 + scrollY), 1, 1).data;
      return Array.from(data);
    });
    expect(pixel[0]).toBeGreaterThan(150);
    expect(pixel[3]).toBeGreaterThan(100);
    await page.evaluate(() => window.PagePulse!.heatmap.hide());
    await expect.poll(() => page.locator('pagepulse-heatmap').count()).toBe(0);
    await context.close();
  });

  it('shows the sticky navbar after 300 px of scrolling; both policy links open the privacy page', async () => {
    const context = await visitor('1.2');
    const page = await context.newPage();
    await page.goto(`${collector.url}/`);
    const header = page.locator('.site-header');
    expect(await header.getAttribute('class')).toContain('is-overlay');
    expect(await header.getAttribute('class')).not.toContain('is-sticky');
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(NOT_STICKY_YET_MS);
    expect(await header.getAttribute('class')).not.toContain('is-sticky');
    await page.evaluate(() => window.scrollTo(0, 450));
    await expect.poll(async () => (await header.getAttribute('class')) ?? '').toContain('is-sticky');
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');

    for (const name of ['Cookie-Richtlinie', 'Datenschutzerklärung']) {
      await page.goto(`${collector.url}/`);
      await Promise.all([
        page.waitForURL('**/kontakt/datenschutz.html'),
        page.locator('footer').getByRole('link', { name, exact: true }).click(),
      ]);
      expect(await page.locator('h1').textContent()).toContain('Datenschutz');
    }
    await context.close();
  });

  it('answers malformed and oversized requests with 400 and 413 and keeps serving', async () => {
    const context = await visitor('1.2');
    const page = await context.newPage();
    await page.goto(`${collector.url}/`);
    const statuses = await page.evaluate(async () => {
      const post = (query: string, body: string) =>
        fetch(`/index.php?${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        }).then((r) => r.status);
      return [
        await post('option=com_jrealtimeanalytics&format=json', 'task=stream.nonsense'),
        await post('option=com_jrealtimeanalytics&format=json', 'task=stream.saveEntity&resource=heatmap'),
        await post('option=com_gdpr&task=user.processCookieCategory', 'gdpr_cookie_category=9&gdpr_cookie_category_state=0'),
        await post('option=com_jrealtimeanalytics&format=json', 'task=stream.display&nowpage=' + 'x'.repeat(70 * 1024)),
        await fetch('/index.php?option=com_ajax&format=json').then((r) => r.status),
      ];
    });
    expect(statuses).toEqual([400, 400, 400, 413, 200]);
    await context.close();
  });

  it('stores consent choices made in the banner and form consent, listed after a collector restart', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await serveBundleUnderTest(context);
    const page = await context.newPage();
    await page.goto(`${collector.url}/`);
    const consentHost = page.locator('pagepulse-consent');
    await consentHost.locator('.banner').waitFor();
    // accept Statistiken in the banner: logged, and the heartbeat runs on this page (it only adds: no reload)
    await consentHost.locator('input#pp-cat-3').check();
    await consentHost.getByRole('button', { name: 'Auswahl speichern' }).click();
    await expect.poll(() => page.locator(badge('visitors')).textContent(), { timeout: 10_000 }).not.toBe('0');
    // form consent with the tracked fields
    await page.fill('#jform_name', 'Anna Weber');
    await page.fill('#jform_email', 'anna@example.org');
    await page.locator('#jform_privacy').check();
    const consents = async (url: string) =>
      (
        (await (await (await signIn(url)).get('/admin/api/consents?limit=20')).json()) as {
          consents: Array<Record<string, unknown>>;
        }
      ).consents;
    await expect.poll(async () => (await consents(collector.url)).some((c) => c.kind === 'form')).toBe(true);
    const before = await consents(collector.url);
    expect(before.find((c) => c.kind === 'generic')).toMatchObject({ granted: true });
    expect(before.find((c) => c.kind === 'category')).toMatchObject({ category: 3, granted: true });
    expect(before.find((c) => c.kind === 'form')).toMatchObject({
      formId: 'kontaktformular',
      fields: { name: 'Anna Weber', email: 'anna@example.org' },
      deletedAt: null,
    });
    await context.close();

    collector = await collector.reopen();
    const after = await consents(collector.url);
    expect(after).toEqual(before);
  });
  it("the banner is never the page's largest contentful paint: 360 to 1366 px, German and English", async () => {
    // every LCP candidate the page reports; the banner's text lies in a shadow root, whose
    // elements paint timing does not expose (element null)
    const lcpEntries = `window.__lcp = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp.push({ size: e.size, element: e.element ? e.element.localName : null }); }).observe({ type: 'largest-contentful-paint', buffered: true });`;
    for (const [width, height] of [
      [360, 740],
      [390, 844],
      [412, 823],
      [1366, 768],
    ] as const)
      for (const lang of ['de', 'en']) {
        const context = await browser.newContext({ viewport: { width, height } });
        await serveBundleUnderTest(context);
        await context.addInitScript(lcpEntries);
        await context.route(`${collector.url}/`, async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace('<html lang="de"', `<html lang="${lang}"`);
          await route.fulfill({ response, body: html });
        });
        const page = await context.newPage();
        const errors = collectPageErrors(page);
        await page.goto(`${collector.url}/`);
        await page.locator('pagepulse-consent .banner').waitFor();
        const candidates = () =>
          page.evaluate(() => (window as unknown as { __lcp: unknown[] }).__lcp) as Promise<
            Array<{ size: number; element: string | null }>
          >;
        // a candidate is reported once its frame is presented, which a busy machine delays past the
        // frames themselves (a CI run read none two frames after the banner): the first is waited for,
        // then two frames after the banner is in view and an absence window for any later one
        await expect.poll(async () => (await candidates()).length, { message: `${width} px, ${lang}` }).toBeGreaterThan(0);
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        await page.waitForTimeout(LATER_CANDIDATE_MS);
        const entries = await candidates();
        expect(
          entries.filter((e) => e.element === null),
          `${width} px, ${lang}: ${JSON.stringify(entries)}`,
        ).toEqual([]);
        expect(errors).toEqual([]);
        await context.close();
      }
  });
});
