import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../collector/server/options';
import type { ClicksStore } from '../../collector/server/store';
import { createClickReads } from '../../collector/server/visitor/clicks';
import { closeHarness, type Harness, signIn, startCollector, STREAM, type Visitor } from '../support/collector';

const PAGE = 'http://lichtwerk.test/';
const GDPR = '/index.php?option=com_gdpr';

let h: Harness;
beforeEach(async () => {
  h = await startCollector();
});
afterEach(() => closeHarness(h));

describe('stream.display (heartbeat)', () => {
  it('answers as the real component: configparams with the first beat, the counts to a page with the module, later `[]` without it', async () => {
    const answer = await h.visitor().beat(PAGE, true);
    expect(answer).toEqual({
      configparams: DEFAULT_SETTINGS,
      'data-bind': { users_onpage: '1', visitors: '1', users_logged: '0', users_total: '1' },
    });
    // the shapes of fixtures/real-server/jrealtimeanalytics-3.4.6.json, each the bytes the bundle reads
    const v = h.visitor();
    const beat = async (...fields: Array<[string, string]>) =>
      (await v.post(STREAM, [['task', 'stream.display'], ['nowpage', PAGE], ...fields])).json();
    expect(await beat(['initialize', 'true'], ['module_available', '0'])).toEqual({ configparams: DEFAULT_SETTINGS });
    expect(await beat(['module_available', '0'])).toEqual([]);
    expect(await beat(['module_available', '1'])).toEqual({
      'data-bind': { users_onpage: '2', visitors: '2', users_logged: '0', users_total: '2' },
    });
  });

  it('counts two session cookies as two visitors, per page, ignoring the fragment', async () => {
    const anna = h.visitor();
    const ben = h.visitor();
    const carla = h.visitor();
    await anna.beat(PAGE, true);
    await carla.beat('http://lichtwerk.test/kontakt/datenschutz.html', true);
    const answer = await ben.beat(`${PAGE}#galerie`, true);
    expect(anna.cookie).not.toEqual(ben.cookie);
    expect(answer['data-bind']).toEqual({ users_onpage: '2', visitors: '3', users_logged: '0', users_total: '3' });
    // the same visitor beating again is still one
    expect((await anna.beat(PAGE))['data-bind']).toMatchObject({ users_onpage: '2', visitors: '3' });
  });

  it('drops a session whose last heartbeat is older than the window (3 intervals, at least 10 s)', async () => {
    const anna = h.visitor();
    await anna.beat(PAGE, true);
    h.clock.now += 9_000;
    expect((await h.visitor().beat(PAGE, true))['data-bind']).toMatchObject({
      users_onpage: '2',
      visitors: '2',
      users_total: '2',
    });
    h.clock.now += 2_000; // anna's beat is 11 s old now
    expect((await h.visitor().beat(PAGE, true))['data-bind']).toMatchObject({
      users_onpage: '2',
      visitors: '2',
      users_total: '3',
    });
    expect((await anna.beat(PAGE))['data-bind']).toMatchObject({ users_onpage: '3', visitors: '3', users_total: '3' });
  });

  it('prunes presence rows older than an hour and keeps page views', async () => {
    const anna = h.visitor();
    await anna.beat(PAGE, true);
    await anna.beat(PAGE);
    await anna.beat(PAGE);
    const rows = async () => [
      (await h.query('SELECT COUNT(*) AS n FROM presence'))[0]!.n,
      (await h.query('SELECT COUNT(*) AS n FROM page_views'))[0]!.n,
    ];
    expect(await rows()).toEqual([3, 1]);
    h.clock.now += 59 * 60_000;
    await anna.beat(PAGE); // not an hour old yet: nothing goes
    expect(await rows()).toEqual([4, 1]);
    h.clock.now += 2 * 60_000;
    expect((await anna.beat(PAGE))['data-bind']).toMatchObject({ users_onpage: '1', users_total: '1' });
    // the three beats of the first minute went; the page view and the recent beats stay
    expect(await rows()).toEqual([2, 1]);
    // the page view lasts until the latest beat (time on page)
    expect(await h.query('SELECT last_at - at AS stay FROM page_views')).toEqual([{ stay: 61 * 60_000 }]);
  });

  it('sends the configured settings and widens the window with a slower refresh', async () => {
    await h.close();
    h = await startCollector({ settings: { daemonrefresh: 10, enable_debug: 1, daemontimeout: 30 } });
    const anna = h.visitor();
    const first = await anna.beat(PAGE, true);
    expect(first.configparams).toEqual({ ...DEFAULT_SETTINGS, daemonrefresh: 10, enable_debug: 1, daemontimeout: 30 });
    h.clock.now += 25_000; // inside 3 x 10 s
    expect((await h.visitor().beat(PAGE, true))['data-bind']).toMatchObject({ visitors: '2' });
    h.clock.now += 10_000; // anna is 35 s old
    expect((await h.visitor().beat(PAGE, true))['data-bind']).toMatchObject({ visitors: '2', users_total: '3' });
  });

  it('refuses a heartbeat without nowpage or with a non-numeric module count', async () => {
    const v = h.visitor();
    const missing = await v.post(STREAM, [
      ['task', 'stream.display'],
      ['initialize', 'true'],
    ]);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'missing field: nowpage' });
    const bad = await v.post(STREAM, [
      ['task', 'stream.display'],
      ['nowpage', PAGE],
      ['module_available', 'x'],
    ]);
    expect(bad.status).toBe(400);
  });

  it('refuses the wrong method with 405', async () => {
    const res = await h.visitor().get(`${STREAM}&task=stream.display&nowpage=x`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('stream.saveEntity (heatmap click) and /api/clicks', () => {
  const selector =
    'html > body:nth-child(2) > header.site-header:nth-child(3) > nav.uk-navbar-container:nth-child(1) > a.brand:nth-child(1)';
  /** A visitor with a page view of `page` (the bundle records clicks only after its first heartbeat). */
  const viewer = async (page = PAGE) => {
    const v = h.visitor();
    await v.beat(page, true);
    return v;
  };
  const click = async (v?: Visitor, sel = selector, page = `${PAGE}#top`) =>
    (v ?? (await viewer(page))).post(STREAM, [
      ['task', 'stream.saveEntity'],
      ['resource', 'heatmap'],
      ['clicked_element', sel],
      ['nowpage', page],
    ]);

  it('stores clicks and lists them per selector, page compared without fragment', async () => {
    const first = await click();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual([]); // the real component's answer
    expect(first.headers.get('access-control-allow-origin')).toBeNull(); // no CORS on writes
    h.clock.now += 5_000;
    await click();
    await click(undefined, 'html > body:nth-child(2)::galerie-offen');
    await click(undefined, 'html > body:nth-child(2)', 'http://lichtwerk.test/other');

    const res = await h.visitor().get(`/api/clicks?page=${encodeURIComponent(`${PAGE}#anything`)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      page: PAGE,
      clicks: [
        { selector, count: 2 },
        { selector: 'html > body:nth-child(2)::galerie-offen', count: 1 },
      ],
    });
  });

  it("stores the original client's call (task in the query, resource=heatmapclick) beside the older one", async () => {
    const SAVE = '/index.php?option=com_jrealtimeanalytics&task=stream.saveEntity&format=json';
    const original = 'div.container>ul.nav.menu>li:nth-child(3)>a';
    const v = await viewer();
    const res = await v.post(SAVE, [
      ['resource', 'heatmapclick'],
      ['clicked_element', original],
      ['nowpage', PAGE],
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    // PagePulse's own call is now the same bytes (docs/protocol.md#heatmap-click); a second visitor lands on the same selector
    await (
      await viewer()
    ).post(SAVE, [
      ['resource', 'heatmapclick'],
      ['clicked_element', original],
      ['nowpage', `${PAGE}#x`],
    ]);
    await click(v); // the older call: task and resource=heatmap in the body
    expect(
      (
        await v.post(SAVE, [
          ['resource', 'heatmapclicks'],
          ['clicked_element', original],
          ['nowpage', PAGE],
        ])
      ).status,
    ).toBe(400);
    const listed = (await (await v.get(`/api/clicks?page=${encodeURIComponent(PAGE)}`)).json()) as {
      clicks: Array<{ selector: string; count: number }>;
    };
    expect(listed.clicks.map(({ selector: s, count }) => [s, count])).toEqual([
      [original, 2],
      [selector, 1],
    ]);
  });

  it('lists a click in the read right after it, and counts a page at most once a second under a flood', async () => {
    const v = await viewer();
    const listed = async () =>
      ((await (await v.get(`/api/clicks?page=${encodeURIComponent(PAGE)}`)).json()) as { clicks: Array<{ count: number }> })
        .clicks[0]?.count;
    await click(v);
    expect(await listed()).toBe(1);
    await click(v); // within the second of the last count (the harness clock stands still)
    expect(await listed()).toBe(2);
    await click(v);
    expect(await Promise.all([listed(), listed(), listed()])).toEqual([3, 3, 3]);

    // the bound, counted on the store: 50 clicks, each followed by 4 reads, at most once per 1,000 ms
    let counts = 0;
    const reads = createClickReads({
      onPage: async () => {
        counts++;
        return [];
      },
    } as unknown as ClicksStore);
    const started = Date.now();
    const all: Array<Promise<unknown>> = [];
    for (let i = 0; i < 50; i++) {
      reads.clicked(PAGE);
      for (let j = 0; j < 4; j++) all.push(reads.answer(PAGE, () => true, Date.now()));
      await new Promise((done) => setTimeout(done, 20));
    }
    await Promise.all(all);
    expect(counts).toBeGreaterThanOrEqual(2);
    expect(counts).toBeLessThanOrEqual(1 + Math.ceil((Date.now() - started) / 1000));
  });

  it('refuses missing fields and other resources', async () => {
    const v = h.visitor();
    for (const fields of [
      [
        ['task', 'stream.saveEntity'],
        ['resource', 'heatmap'],
        ['nowpage', PAGE],
      ],
      [
        ['task', 'stream.saveEntity'],
        ['resource', 'heatmap'],
        ['clicked_element', 'html'],
      ],
      [
        ['task', 'stream.saveEntity'],
        ['clicked_element', 'html'],
        ['nowpage', PAGE],
      ],
      [
        ['task', 'stream.saveEntity'],
        ['resource', 'video'],
        ['clicked_element', 'html'],
        ['nowpage', PAGE],
      ],
    ] as const) {
      expect((await v.post(STREAM, fields)).status).toBe(400);
    }
    expect((await (await v.get(`/api/clicks?page=${encodeURIComponent(PAGE)}`)).json()).clicks).toEqual([]);
    expect((await v.get('/api/clicks')).status).toBe(400);
  });

  it('answers the CORS preflight of the read endpoints', async () => {
    const res = await fetch(`${h.url}/api/clicks?page=x`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://elsewhere.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-requested-with',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/X-Requested-With/i);
  });
});

describe('com_gdpr consent logging, read through /admin/api/consents', () => {
  const consents = async (limit = 10) =>
    (
      (await (await (await signIn(h.url)).get(`/admin/api/consents?limit=${limit}`)).json()) as {
        consents: Array<Record<string, unknown>>;
      }
    ).consents;

  it('records the generic choice and each category, newest first, without session or IP', async () => {
    const v = h.visitor();
    const generic = await v.post(`${GDPR}&task=user.processGenericCookieCategories`, [['gdpr_generic_cookie_consent', 1]]);
    expect(generic.status).toBe(200);
    expect(await generic.json()).toEqual({ success: true });
    h.clock.now += 1000;
    expect(
      (
        await v.post(`${GDPR}&task=user.processCookieCategory`, [
          ['gdpr_cookie_category', 3],
          ['gdpr_cookie_category_state', 0],
        ])
      ).status,
    ).toBe(200);
    h.clock.now += 1000;
    expect(
      (
        await v.post(`${GDPR}&task=user.processCookieCategory`, [
          ['gdpr_cookie_category', 4],
          ['gdpr_cookie_category_state', 1],
        ])
      ).status,
    ).toBe(200);

    const list = await consents();
    expect(list.map((c) => [c.kind, c.category, c.granted])).toEqual([
      ['category', 4, false],
      ['category', 3, true],
      ['generic', null, true],
    ]);
    expect(list[0]!.at).toBe(new Date(h.clock.now).toISOString());
    const sessionValue = v.cookie!.split('=')[1]!;
    expect(list[0]!.visitor).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(list)).not.toContain(sessionValue);
    expect(list[0]).not.toHaveProperty('ip');
    expect(await consents(2)).toHaveLength(2);
  });

  it('keeps the consent ID of each log call: shown in the log and the CSV, searched and erased by it; a call without one is kept too', async () => {
    const ID = 'q1Lh0_Zx-4vK9mT2wPa7Bc';
    const v = h.visitor();
    const log = (fields: Array<[string, string | number]>, task = 'user.processGenericCookieCategories') =>
      v.post(`${GDPR}&task=${task}`, fields);
    expect(
      (
        await log([
          ['gdpr_generic_cookie_consent', 1],
          ['consent_id', ID],
        ])
      ).status,
    ).toBe(200);
    h.clock.now += 1000;
    expect(
      (
        await log(
          [
            ['gdpr_cookie_category', 3],
            ['gdpr_cookie_category_state', 0],
            ['consent_id', ID],
          ],
          'user.processCookieCategory',
        )
      ).status,
    ).toBe(200);
    // another browser, an older bundle: no ID
    expect(
      (await h.visitor().post(`${GDPR}&task=user.processGenericCookieCategories`, [['gdpr_generic_cookie_consent', 0]])).status,
    ).toBe(200);
    // not a random ID of at least 96 bits: refused, nothing stored
    for (const bad of ['abc', 'a'.repeat(65), '0123456789abcdef01', 'q1Lh0_Zx-4vK9mT2<script>', 'q1Lh0 Zx-4vK9mT2wPa7Bc'])
      expect(
        (
          await log([
            ['gdpr_generic_cookie_consent', 1],
            ['consent_id', bad],
          ])
        ).status,
        bad,
      ).toBe(400);

    const admin = await signIn(h.url);
    const list = (await (await admin.get('/admin/api/consents')).json()) as { consents: Array<Record<string, unknown>> };
    expect(list.consents.map((c) => [c.kind, c.consentId])).toEqual([
      ['generic', null],
      ['category', ID],
      ['generic', ID],
    ]);
    const found = (await (await admin.get(`/admin/api/consents?consent=${ID}`)).json()) as { consents: unknown[] };
    expect(found.consents).toHaveLength(2);
    expect((await admin.get('/admin/api/consents?consent=x')).status).toBe(400);
    const csv = (await (await admin.get(`/admin/consents.csv?consent=${ID}`)).text()).split('\r\n');
    expect(csv[0]).toBe('time,pseudonym,consent_id,kind,category,choice,user_agent,url,form,fields,deleted_at');
    expect(csv[1]).toContain(`,${ID},category,3,allow,`);
    expect(csv).toHaveLength(4);
    // erasure by consent ID: every record of the sessions that sent it
    expect(await (await admin.post('/admin/api/erase', { consent: ID })).json()).toMatchObject({ sessions: 1 });
    const left = (await (await admin.get('/admin/api/consents')).json()) as { consents: Array<Record<string, unknown>> };
    expect(left.consents.map((c) => c.consentId)).toEqual([null]);
  });

  it('refuses categories outside 1..4, states other than 0/1, and bad limits', async () => {
    const v = h.visitor();
    for (const [category, state] of [
      [5, 0],
      [0, 1],
      ['x', 0],
      [3, 2],
      [3, ''],
    ] as const) {
      expect(
        (
          await v.post(`${GDPR}&task=user.processCookieCategory`, [
            ['gdpr_cookie_category', category],
            ['gdpr_cookie_category_state', state],
          ])
        ).status,
      ).toBe(400);
    }
    expect(
      (await v.post(`${GDPR}&task=user.processGenericCookieCategories`, [['gdpr_generic_cookie_consent', 'yes']])).status,
    ).toBe(400);
    const admin = await signIn(h.url);
    expect((await admin.get('/admin/api/consents?limit=0')).status).toBe(400);
    expect((await admin.get('/admin/api/consents?limit=abc')).status).toBe(400);
    expect(await consents()).toEqual([]);
  });

  it('stores a form consent with its fields and marks the latest one deleted', async () => {
    const v = h.visitor();
    const form = [
      ['url', `${PAGE}#kontakt`],
      ['formid', 'kontaktformular'],
      ['formname', 'kontakt'],
    ] as const;
    const fields = [
      ['formfields[name]', 'Anna Müller'],
      ['formfields[email]', 'anna@example.org'],
      ['formfields[subject]', 'Hochzeit (Juni) – Anfrage'],
      ['formfields[message]', "Hallo! Wir heiraten am 14.6. & suchen eine*n Fotograf*in. Geht's?"],
    ] as const;
    const stored = await v.post(`${GDPR}&task=user.storeConsent&format=raw`, [...form, ...fields]);
    expect(stored.status).toBe(200);
    let [record] = await consents();
    expect(record).toMatchObject({
      kind: 'form',
      url: PAGE,
      formId: 'kontaktformular',
      formName: 'kontakt',
      fields: Object.fromEntries(fields.map(([k, value]) => [k.slice('formfields['.length, -1), value])),
      deletedAt: null,
    });

    h.clock.now += 3000;
    const deleted = await v.post(`${GDPR}&task=user.deleteConsent&format=raw`, form);
    expect(await deleted.json()).toEqual({ success: true, deleted: 1 });
    [record] = await consents();
    expect(record!.deletedAt).toBe(new Date(h.clock.now).toISOString());
    // nothing left to delete, and another visitor cannot delete someone else's record
    expect(await (await v.post(`${GDPR}&task=user.deleteConsent&format=raw`, form)).json()).toEqual({
      success: true,
      deleted: 0,
    });
    await v.post(`${GDPR}&task=user.storeConsent&format=raw`, [...form, ...fields]);
    expect(await (await h.visitor().post(`${GDPR}&task=user.deleteConsent&format=raw`, form)).json()).toEqual({
      success: true,
      deleted: 0,
    });
  });

  it('refuses a form consent without url or form identity', async () => {
    const v = h.visitor();
    expect(
      (
        await v.post(`${GDPR}&task=user.storeConsent&format=raw`, [
          ['formid', 'f'],
          ['formfields[name]', 'A'],
        ])
      ).status,
    ).toBe(400);
    expect(
      (
        await v.post(`${GDPR}&task=user.storeConsent&format=raw`, [
          ['url', PAGE],
          ['formfields[name]', 'A'],
        ])
      ).status,
    ).toBe(400);
    expect((await v.post(`${GDPR}&task=user.deleteConsent&format=raw`, [['url', PAGE]])).status).toBe(400);
  });
});

describe('category descriptions', () => {
  const describeUrl = (n: string | number) =>
    `${GDPR}&task=user.getCookieCategoryDescription&format=raw&gdpr_cookie_category=${n}`;
  const ALLOWED_TAGS = new Set(['div', 'p', 'span', 'strong', 'em', 'ul', 'ol', 'li', 'fieldset', 'legend', 'a', 'br']);

  it('answers a German fragment per category with only the tags the bundle keeps', async () => {
    const v = h.visitor();
    const expected: Record<number, string[]> = {
      1: ['Notwendig', 'cookieconsent_status', 'cookieconsent_categories', 'Sitzungs-Cookie', '365 Tage'],
      2: ['Präferenzen'],
      3: ['Statistiken', 'com_jrealtimeanalytics', 'analytics-tag.js'],
      4: ['Marketing', 'ad-pixel.js', 'Video'],
    };
    for (const [n, words] of Object.entries(expected)) {
      const res = await v.get(describeUrl(n));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      for (const word of words) expect(html).toContain(word);
      const tags = [...html.matchAll(/<\/?([a-z0-9]+)/gi)].map((m) => m[1]!.toLowerCase());
      expect(tags.filter((t) => !ALLOWED_TAGS.has(t))).toEqual([]);
      expect(html).not.toMatch(/\s(on\w+|style)=/i);
    }
    // category 1 names this collector's session cookie
    expect(await (await v.get(describeUrl(1))).text()).toContain(v.cookie!.split('=')[0]);
  });

  it('refuses an unknown category', async () => {
    for (const n of ['0', '5', 'abc', '']) expect((await h.visitor().get(describeUrl(n))).status).toBe(400);
  });
});

describe('keep-alive and unknown tasks', () => {
  it('answers com_ajax like Joomla core', async () => {
    const res = await h.visitor().get('/index.php?option=com_ajax&format=json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: null, messages: null, data: [] });
  });

  it('answers 400 "unknown task" for anything else under /index.php', async () => {
    const v = h.visitor();
    for (const path of [
      '/index.php',
      '/index.php?option=com_content&task=article.edit',
      `${GDPR}&task=user.nope`,
      '/index.php?option=com_jrealtimeanalytics',
    ]) {
      const res = await v.get(path);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'unknown task' });
    }
    const posted = await v.post(STREAM, [['task', 'stream.__proto__']]);
    expect(posted.status).toBe(400);
  });
});
