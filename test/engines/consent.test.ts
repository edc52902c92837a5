import { describe, expect, it } from 'vitest';
import { BUNDLES, useEngine, type EnginePage } from '../support/engines';
import { clickAndWatch, consentIds, consentLogs, serve, shadowText, sleep } from '../support/engines/scenario';

/** Absence window: before a choice nothing is tracked and no cookie set. */
const NOTHING_BEFORE_CHOICE_MS = 800;
/** Absence window: the blocked scripts ran nothing before the choice. */
const NOTHING_RUNS_MS = 300;
/** Absence window: no second page view (initialize=true) after the first arrived. */
const NO_SECOND_VIEW_MS = 500;

// The consent widget in the engine of this run (PAGEPULSE_ENGINE), against both built bundles.
const suite = useEngine((server) => {
  server.file('/vendor/ad.js', "(window.order = window.order || []).push('ad');", 'text/javascript');
  server.file('/vendor/stats.js', "(window.order = window.order || []).push('stats');", 'text/javascript');
  server.file('/vendor/declared.js', 'window.__declared = (window.__declared || 0) + 1;', 'text/javascript');
  server.file('/vendor/written.js', 'window.__written = (window.__written || 0) + 1;', 'text/javascript');
  // run in a friendly iframe (the page's own, without an address): counted in the page
  server.file('/vendor/friendly.js', 'parent.__friendly = (parent.__friendly || 0) + 1;', 'text/javascript');
  server.page('/embed.html', '<!doctype html><title>Video</title><p>Video</p>');
  server.on('user.getCookieCategoryDescription', () => ({
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: '<p>Beschreibung</p><ul><li>Cookie</li></ul>',
  }));
});

const BLOCKED = `<h1>Studio</h1>
<iframe data-category="4" data-src="/embed.html" title="Studio-Video" width="400" height="200"></iframe>
<script type="text/plain" data-category="Marketing" data-src="/vendor/ad.js"></script>
<script type="text/plain" data-category="3" data-src="/vendor/stats.js"></script>`;
const HOST = 'pagepulse-consent';
const ACTIONS = ['.actions button:nth-child(1)', '.actions button:nth-child(2)', '.actions button:nth-child(3)'] as const;
const [DECLINE, SAVE, ACCEPT] = ACTIONS;

/** Open a first-visit page with the blocked content and wait for the banner. */
async function firstVisit(path: string, bundle: string): Promise<EnginePage> {
  serve(suite.server, path, bundle, { body: BLOCKED, attrs: { 'data-privacy-url': '/datenschutz.html' } });
  const page = await suite.open(path);
  await expect
    .poll(() => page.evaluate(() => Boolean(document.querySelector('pagepulse-consent')?.shadowRoot?.querySelector('.banner'))))
    .toBe(true);
  return page;
}
const bannerOpen = (page: EnginePage) =>
  page.evaluate(() => Boolean(document.querySelector('pagepulse-consent')?.shadowRoot?.querySelector('.banner')));
const boxes = (page: EnginePage) =>
  page.evaluate(() =>
    Array.from(document.querySelector('pagepulse-consent')!.shadowRoot!.querySelectorAll('input[type=checkbox]')).map(
      (b) => (b as HTMLInputElement).checked,
    ),
  );
/** The focused control in the widget: its text, else its id. */
const focused = (page: EnginePage) =>
  page.evaluate(() => {
    const active = document.querySelector('pagepulse-consent')?.shadowRoot?.activeElement as HTMLElement | null | undefined;
    return active ? (active.textContent || active.id || active.tagName).trim() : null;
  });
const dialogOpen = (page: EnginePage) =>
  page.evaluate(() => Boolean(document.querySelector('pagepulse-consent')!.shadowRoot!.querySelector('dialog')?.open));
const tracked = (path: string) => suite.server.calls('stream.display').filter((c) => c.body.includes(encodeURIComponent(path)));

for (const bundle of BUNDLES) {
  describe(`consent (${bundle.name} bundle)`, () => {
    const at = (name: string) => `/${bundle.name}/${name}.html`;

    it('first visit: the banner is in the page while the script runs, before the parser goes on', async () => {
      const path = at('banner-first');
      suite.server.page(
        path,
        `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Zuerst</title></head><body><h1>Seite</h1>
<script src="/dist/${bundle.file}" data-privacy-url="/datenschutz.html"></script>
<script>window.afterTag = { banner: Boolean(document.querySelector('pagepulse-consent') && document.querySelector('pagepulse-consent').shadowRoot && document.querySelector('pagepulse-consent').shadowRoot.querySelector('.banner')), loading: document.readyState === 'loading' };</script>
<p>Danach</p></body></html>`,
      );
      const page = await suite.open(path);
      await expect.poll(() => bannerOpen(page)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { afterTag: unknown }).afterTag)).toEqual({
        banner: true,
        loading: true,
      });
    });

    it('first visit: the banner with decline first, the opt-out defaults, no request and no cookie', async () => {
      const page = await firstVisit(at('first'), bundle.file);
      expect(
        await page.evaluate(() =>
          Array.from(document.querySelector('pagepulse-consent')!.shadowRoot!.querySelectorAll('.actions button')).map(
            (b) => b.textContent,
          ),
        ),
      ).toEqual(['Ablehnen', 'Auswahl speichern', 'Alle akzeptieren']);
      const states = await page.evaluate(() =>
        Array.from(document.querySelector('pagepulse-consent')!.shadowRoot!.querySelectorAll('input[type=checkbox]')).map((b) => [
          (b as HTMLInputElement).checked,
          (b as HTMLInputElement).disabled,
        ]),
      );
      expect(states).toEqual([
        [true, true],
        [true, false],
        [false, false],
        [false, false],
      ]);
      expect(
        await page.evaluate(() =>
          document.querySelector('pagepulse-consent')!.shadowRoot!.querySelector('.banner')!.getAttribute('role'),
        ),
      ).toBe('dialog');
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('pagepulse-consent')!).position)).toBe('fixed');
      await sleep(NOTHING_BEFORE_CHOICE_MS);
      expect(tracked(at('first'))).toEqual([]);
      expect(await page.cookies()).toEqual({});
    });

    it('keyboard: Tab walks the banner in order, Enter opens a description, Tab stays in the dialog, Escape closes it and focus returns', async () => {
      const page = await firstVisit(at('keys'), bundle.file);
      // the banner takes the focus as it opens (a React effect, after the first paint)
      await expect
        .poll(() =>
          page.evaluate(() => document.querySelector('pagepulse-consent')!.shadowRoot!.activeElement?.className ?? null),
        )
        .toBe('banner');
      const order: Array<string | null> = [];
      for (let i = 0; i < 9; i++) {
        await page.press('Tab');
        order.push(await focused(page));
      }
      expect(order).toEqual([
        'Datenschutzerklärung',
        'Notwendig',
        'pp-cat-2',
        'Präferenzen',
        'pp-cat-3',
        'Statistiken',
        'pp-cat-4',
        'Marketing',
        'Ablehnen',
      ]);
      await page.press('Tab');
      await page.press('Tab');
      expect(await focused(page)).toBe('Alle akzeptieren');
      for (let i = 0; i < 3; i++) await page.press('Shift+Tab');
      expect(await focused(page)).toBe('Marketing');
      await page.press('Enter');
      await expect.poll(() => dialogOpen(page)).toBe(true);
      await expect
        .poll(() =>
          page.evaluate(() => document.querySelector('pagepulse-consent')!.shadowRoot!.querySelectorAll('dialog li').length),
        )
        .toBe(1);
      for (let i = 0; i < 3; i++) {
        await page.press('Tab');
        expect(
          await page.evaluate(() =>
            Boolean(document.querySelector('pagepulse-consent')!.shadowRoot!.activeElement?.closest('dialog')),
          ),
        ).toBe(true);
      }
      await page.press('Escape');
      await expect.poll(() => dialogOpen(page)).toBe(false);
      expect(await focused(page)).toBe('Marketing');
    });

    it('Ablehnen: deny cookies, the log calls, one reload, the deny message and a revoke button that reopens the banner', async () => {
      const page = await firstVisit(at('deny'), bundle.file);
      const since = suite.server.requests.length;
      expect(await clickAndWatch(page, DECLINE, HOST)).toBe(true);
      expect(await page.cookies()).toMatchObject({ cookieconsent_status: 'deny', cookieconsent_categories: '1' });
      expect(consentLogs(suite.server, since)).toEqual([
        'user.processCookieCategory gdpr_cookie_category=2&gdpr_cookie_category_state=1',
        'user.processGenericCookieCategories gdpr_generic_cookie_consent=0',
      ]);
      await expect.poll(() => shadowText(page, 'pagepulse-notify')).toContain('Sie haben Cookies abgelehnt');
      expect(await bannerOpen(page)).toBe(false);
      await page.click('button.revoke', HOST);
      await expect.poll(() => bannerOpen(page)).toBe(true);
      expect(await boxes(page)).toEqual([true, false, false, false]);
      expect(tracked(at('deny'))).toEqual([]);
    });

    it('Auswahl speichern unchanged: allow 1.2, the generic log call, no reload', async () => {
      const page = await firstVisit(at('save'), bundle.file);
      const since = suite.server.requests.length;
      expect(await clickAndWatch(page, SAVE, HOST, 1500)).toBe(false);
      expect(await page.cookies()).toMatchObject({ cookieconsent_status: 'allow', cookieconsent_categories: '1.2' });
      expect(consentLogs(suite.server, since)).toEqual(['user.processGenericCookieCategories gdpr_generic_cookie_consent=1']);
      expect(await bannerOpen(page)).toBe(false);
    });

    it('Auswahl speichern with Statistiken ticked: that log call, no reload (it only adds), the statistics script and the tracker run', async () => {
      const page = await firstVisit(at('save3'), bundle.file);
      await page.click('input#pp-cat-3', HOST);
      expect(await boxes(page)).toEqual([true, true, true, false]);
      const since = suite.server.requests.length;
      expect(await clickAndWatch(page, SAVE, HOST, 1500)).toBe(false);
      expect(await page.cookies()).toMatchObject({ cookieconsent_status: 'allow', cookieconsent_categories: '1.2.3' });
      expect(consentLogs(suite.server, since)).toEqual([
        'user.processCookieCategory gdpr_cookie_category=3&gdpr_cookie_category_state=0',
        'user.processGenericCookieCategories gdpr_generic_cookie_consent=1',
      ]);
      await expect.poll(() => page.evaluate(() => (window as unknown as { order?: string[] }).order ?? null)).toEqual(['stats']);
      await expect.poll(() => tracked(at('save3')).length).toBeGreaterThan(0);
      // marketing stays blocked
      expect(await page.evaluate(() => document.querySelector('iframe')!.getAttribute('src'))).toBeNull();
    });

    it('Alle akzeptieren: all categories, the log calls with the consent ID, no reload; the blocked iframe and scripts are released in order', async () => {
      const page = await firstVisit(at('all'), bundle.file);
      await sleep(NOTHING_RUNS_MS);
      expect(await page.evaluate(() => (window as unknown as { order?: string[] }).order ?? null)).toBeNull();
      expect(await page.evaluate(() => document.querySelector('iframe')!.getAttribute('src'))).toBeNull();
      expect(
        await page.evaluate(
          () =>
            document.querySelector('.gdprlock-placeholder')?.shadowRoot?.querySelector('.gdprlock-placeholder-text')
              ?.textContent ?? '',
        ),
      ).toContain('müssen Cookies akzeptiert werden');
      const since = suite.server.requests.length;
      expect(await clickAndWatch(page, ACCEPT, HOST, 1500)).toBe(false);
      const jar = await page.cookies();
      expect(jar).toMatchObject({ cookieconsent_status: 'allow', cookieconsent_categories: '1.2.3.4' });
      expect(jar.pagepulse_consent_id).toMatch(/^[\w-]{22}$/);
      expect(consentIds(suite.server, since)).toEqual([
        jar.pagepulse_consent_id,
        jar.pagepulse_consent_id,
        jar.pagepulse_consent_id,
      ]);
      expect(consentLogs(suite.server, since)).toEqual([
        'user.processCookieCategory gdpr_cookie_category=3&gdpr_cookie_category_state=0',
        'user.processCookieCategory gdpr_cookie_category=4&gdpr_cookie_category_state=0',
        'user.processGenericCookieCategories gdpr_generic_cookie_consent=1',
      ]);
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { order?: string[] }).order ?? null))
        .toEqual(['ad', 'stats']);
      expect(await page.evaluate(() => document.querySelector('iframe')!.getAttribute('src'))).toBe('/embed.html');
      expect(await page.evaluate(() => document.querySelectorAll('.gdprlock-placeholder').length)).toBe(0);
      expect(await bannerOpen(page)).toBe(false);
      // the tracker starts on this page, once: one page view
      await expect.poll(() => tracked(at('all')).length).toBeGreaterThan(0);
      await sleep(NO_SECOND_VIEW_MS);
      expect(tracked(at('all')).filter((c) => c.body.includes('&initialize=true&'))).toHaveLength(1);
    });
  });
}

// What both builds hold before it connects or navigates (src/platform/watch.ts, src/platform/markup.ts):
// iframes in markup an element's or a shadow root's innerHTML, outerHTML, insertAdjacentHTML or
// setHTMLUnsafe sets (a shadow root that markup declares too), what DocumentFragment's append, prepend
// and replaceChildren and Range's insertNode put in, and an address given later to an iframe in the
// page (its src setter, setAttribute; in a shadow root too); and what a shadow root the page's own
// markup declares holds: its script never runs before a choice, its iframe is held (a parsed iframe's
// request may leave before any script sees it: README, "What no script can stop"; it is not counted).
// One page for both builds (one module since stop 55): 5 loads of the React build, 3 of the lite
// build. Before stop 54 the lite build let the three shadow-root iframes through, before stop 55 the
// ones in markup and given an address later; before stop 56 both builds let the declared roots' script
// run and their iframes load.
for (const bundle of BUNDLES) {
  describe(`consent (${bundle.name} bundle): iframes another script sets as markup, puts into shadow roots or a range, or gives an address later; shadow roots the markup declares`, () => {
    /** Absence window: the page has loaded, then this, for an iframe's request to arrive. */
    const LOAD_WINDOW_MS = 600;
    const loads = bundle.name === 'react' ? 5 : 3;
    const embeds = () => suite.server.hits.filter((hit) => hit.includes(`/embed.html?${bundle.name}-`));

    it(`none requested and no declared, written or friendly-iframe script run before a choice (${loads} loads); all fifteen after Alle akzeptieren`, async () => {
      const path = `/${bundle.name}/fragments.html`;
      suite.server.page(
        path,
        `<!doctype html><html lang="de"><head><script src="/dist/${bundle.file}"></script><meta charset="utf-8"><title>Fragmente</title></head>
<body><h1>Fragmente</h1><div id="h1"></div><div id="h2"></div><div id="h3"></div><div id="range"></div>
<div id="inner"></div><ul id="list"><li>eins</li></ul><div id="h4"></div><div id="h5"></div><div id="h6"></div><p><span id="outer"></span></p>
<iframe id="later" data-category="4" title="later"></iframe><iframe id="attribute" data-category="4" title="attribute"></iframe>
<div id="declared"><template shadowrootmode="open"><p>Film</p><script data-category="4" src="/vendor/declared.js"></script><iframe data-category="4" src="/embed.html?parsed" title="parsed"></iframe></template></div>
<div id="unsafe"></div><iframe id="friend" title="friend" hidden></iframe><script>
const by = (name) => '/embed.html?${bundle.name}-' + name;
const make = (name) => {
  const frame = Object.assign(document.createElement('iframe'), { src: by(name), title: name });
  frame.setAttribute('data-category', '4');
  return frame;
};
document.getElementById('h1').attachShadow({ mode: 'open' }).append(make('append'));
document.getElementById('h2').attachShadow({ mode: 'open' }).prepend(make('prepend'));
document.getElementById('h3').attachShadow({ mode: 'open' }).replaceChildren(make('replaceChildren'));
const range = document.createRange();
range.selectNodeContents(document.getElementById('range'));
range.insertNode(make('insertNode'));
const embed = (name) => '<iframe data-category="4" src="' + by(name) + '" title="' + name + '"></iframe>';
document.getElementById('inner').innerHTML = '<p>Film</p>' + embed('innerHTML');
document.getElementById('list').insertAdjacentHTML('beforeend', '<li>' + embed('beforeend') + '</li>');
document.getElementById('list').insertAdjacentHTML('afterend', embed('afterend'));
const deep = document.getElementById('h4').attachShadow({ mode: 'open' });
deep.append(document.createElement('div'));
deep.firstChild.innerHTML = embed('deep');
document.getElementById('h5').attachShadow({ mode: 'open' }).innerHTML = embed('root');
document.getElementById('outer').outerHTML = embed('outerHTML');
document.getElementById('later').src = by('later');
document.getElementById('attribute').setAttribute('src', by('attribute'));
const later = document.getElementById('h6').attachShadow({ mode: 'open' });
later.innerHTML = '<iframe data-category="4" title="shadow-later"></iframe>';
later.firstChild.src = by('shadow-later');
document.getElementById('unsafe').setHTMLUnsafe('<div><template shadowrootmode="open">' + embed('declared') + '</template></div>');
// friendly iframes: a script appended to one a script made, one written into one the markup has
const friendly = document.body.appendChild(Object.assign(document.createElement('iframe'), { hidden: true }));
const script = friendly.contentDocument.createElement('script');
script.src = '/vendor/friendly.js?appended';
script.setAttribute('data-category', '4');
friendly.contentDocument.head.appendChild(script);
const written = document.getElementById('friend').contentDocument;
written.open();
written.write('<script data-category="4" src="/vendor/friendly.js?written"><\\/script>');
written.close();
</script><script>document.write(embed('write') + '<script data-category="4" src="/vendor/written.js"><\\/script>');</script></body></html>`,
      );
      let page: EnginePage | undefined;
      const ran: unknown[] = [];
      for (let load = 0; load < loads; load++) {
        page = await suite.open(path);
        await expect.poll(() => bannerOpen(page!)).toBe(true);
        await sleep(LOAD_WINDOW_MS);
        ran.push(
          await page.evaluate(() => {
            const w = window as { __declared?: number; __written?: number; __friendly?: number };
            // each by name: a failure says which ran
            return { declared: w.__declared ?? 0, written: w.__written ?? 0, friendly: w.__friendly ?? 0 };
          }),
        );
      }
      expect(embeds()).toEqual([]);
      expect(ran).toEqual(Array.from({ length: loads }, () => ({ declared: 0, written: 0, friendly: 0 })));
      // the declared root's iframe held in its root: no address, a placeholder before it
      expect(
        await page!.evaluate(() => {
          const frame = document.getElementById('declared')!.shadowRoot!.querySelector('iframe')!;
          return [frame.getAttribute('src'), frame.previousElementSibling?.localName ?? null];
        }),
      ).toEqual([null, 'pagepulse-placeholder']);
      expect(await clickAndWatch(page!, ACCEPT, HOST, 1500)).toBe(false);
      await expect.poll(() => new Set(embeds().map((hit) => hit.split('?')[1])).size).toBe(15);
      // the declared root's script and the written one ran once each, the declared root's iframe loads
      await expect.poll(() => page!.evaluate(() => (window as { __declared?: number }).__declared)).toBe(1);
      await expect.poll(() => page!.evaluate(() => (window as { __written?: number }).__written)).toBe(1);
      // the two friendly iframes' scripts, once each
      await expect.poll(() => page!.evaluate(() => (window as { __friendly?: number }).__friendly)).toBe(2);
      await expect
        .poll(() =>
          page!.evaluate(() => document.getElementById('declared')!.shadowRoot!.querySelector('iframe')!.getAttribute('src')),
        )
        .toBe('/embed.html?parsed');
    });
  });
}
