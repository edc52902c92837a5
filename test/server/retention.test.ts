import { afterEach, describe, expect, it } from 'vitest';
import type { Traffic } from '../../collector/shared/admin-api';
import { ADMIN_PASSWORD, closeHarness, FORM_TYPE, type Harness, signIn, startCollector, STREAM } from '../support/collector';

// Nothing personal is kept forever (docs/collector.md "Retention"): each table that holds something
// about a visitor or an admin has a default retention, applied by the hourly run, which runs on
// the collector's injected clock and timers here (no real hour passes).

const PAGE = 'http://lichtwerk.test/kontakt';
const GDPR = '/index.php?option=com_gdpr';
const DAY = 24 * 60 * 60 * 1000;
/**
 * Tables without anything personal: the schema's versions, the site's settings, and the day totals
 * (counts per page, category, selector; past the retention without addresses: the test below).
 */
const NOT_PERSONAL = /^(schema_migrations|admin_settings|stats_.*)$/;

/** Timers the test fires by hand: the collector's hourly run among them. */
function manualTimers() {
  const jobs: Array<{ ms: number; run: () => void }> = [];
  return {
    every(ms: number, run: () => void) {
      const job = { ms, run };
      jobs.push(job);
      return () => void jobs.splice(jobs.indexOf(job), 1);
    },
    /** Run every job due at least once in `ms` (an hour: the retention run). */
    fire(ms: number) {
      for (const job of [...jobs]) if (job.ms <= ms) job.run();
    },
    get count() {
      return jobs.length;
    },
  };
}

let h: Harness;
afterEach(() => closeHarness(h));

/** Every table of the collector's database. */
async function tables(): Promise<string[]> {
  const rows =
    h.engine === 'postgres'
      ? await h.query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")
      : await h.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  return rows.map((r) => r.name as string).sort();
}

/**
 * A password-reset link opened from a webmail inbox, whose page (query: e-mail address, token,
 * campaign value) and referring path name someone, with a click on it; a second visitor on a plain
 * page the same day; two days on, the day totals built.
 */
async function resetLinkVisit(): Promise<void> {
  const page = 'http://lichtwerk.test/passwort-neu?email=anna.schmidt%40example.org&token=8f2a9c&utm_campaign=anna-schmidt';
  const first = await fetch(h.url + STREAM, {
    method: 'POST',
    headers: { 'content-type': FORM_TYPE, 'x-requested-with': 'XMLHttpRequest' },
    body:
      `task=stream.display&nowpage=${encodeURIComponent(page)}&initialize=true&module_available=0&device_width=1280&device_height=800` +
      `&referrer=${encodeURIComponent('https://mail.example.net/inbox/anna.schmidt')}`,
  });
  expect(first.status).toBe(200);
  const visitor = h.visitor();
  visitor.cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  h.clock.now += 30_000;
  await visitor.beat(page);
  await visitor.post(STREAM, [
    ['task', 'stream.saveEntity'],
    ['resource', 'heatmapclick'],
    ['nowpage', page],
    ['clicked_element', 'form#neu-anna>button'],
  ]);
  await h.visitor().beat('http://lichtwerk.test/', true);
  h.clock.now += 2 * DAY;
  await h.buildTotals();
}

/** The day totals' labels that name the visitor of resetLinkVisit. */
const named = async () => [
  ...(await h.query("SELECT metric, label FROM stats_visits WHERE label LIKE '%anna%' OR label LIKE '%inbox%'")),
  ...(await h.query("SELECT page, selector FROM stats_clicks WHERE page LIKE '%anna%' OR selector LIKE '%anna%'")),
];

/**
 * The day totals' sums per day and metric (visits) and per day (clicks), of the days (the month
 * totals, which the builder may be writing when this reads, are read through the dashboard).
 */
const sums = async () => ({
  visits: await h.query(
    'SELECT day, metric, SUM(n) AS n, SUM(total) AS total FROM stats_visits WHERE length(day) = 10 GROUP BY day, metric ORDER BY day, metric',
  ),
  clicks: await h.query(
    'SELECT day, SUM(clicks) AS clicks, SUM(visitors) AS visitors FROM stats_clicks WHERE length(day) = 10 GROUP BY day ORDER BY day',
  ),
});

describe('retention', () => {
  it('after 3 years and a month, the hourly run has deleted every personal row of the first day, with the default settings', async () => {
    const timers = manualTimers();
    h = await startCollector({ timers });
    // a visitor: page view and presence beats, a click, the banner choice, the contact form with an e-mail address
    const visitor = h.visitor();
    await visitor.beat(PAGE, true);
    h.clock.now += 2000;
    await visitor.beat(PAGE);
    await visitor.post(STREAM, [
      ['task', 'stream.saveEntity'],
      ['resource', 'heatmapclick'],
      ['nowpage', PAGE],
      ['clicked_element', 'form>button'],
    ]);
    await visitor.post(`${GDPR}&task=user.processGenericCookieCategories`, [['gdpr_generic_cookie_consent', 1]]);
    await visitor.post(`${GDPR}&task=user.processCookieCategory`, [
      ['gdpr_cookie_category', 3],
      ['gdpr_cookie_category_state', 0],
    ]);
    const form = await visitor.post(`${GDPR}&task=user.storeConsent&format=raw`, [
      ['url', PAGE],
      ['formid', 'kontakt'],
      ['formfields[E-Mail]', 'erika@example.org'],
    ]);
    expect(form.status).toBe(200);
    // an admin: a failed and a good sign-in (an attempt, a session, a known device)
    const login = (password: string) =>
      fetch(`${h.url}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: h.url, 'content-type': FORM_TYPE },
        body: new URLSearchParams({ password }).toString(),
      });
    expect((await login('falsch')).status).toBe(401);
    const signedIn = await login(ADMIN_PASSWORD);
    expect(signedIn.status).toBe(303);
    // a stats API token, revoked (a live one is a credential, kept until revoked)
    const admin = { cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, origin: h.url, 'content-type': FORM_TYPE };
    const made = await fetch(`${h.url}/admin/api/tokens`, { method: 'POST', headers: admin, body: 'name=Grafana' });
    const { id } = (await made.json()) as { id: number };
    const revoked = await fetch(`${h.url}/admin/api/tokens/revoke`, { method: 'POST', headers: admin, body: `id=${id}` });
    expect(await revoked.json()).toEqual({ revoked: true });

    const personal = (await tables()).filter((name) => !NOT_PERSONAL.test(name));
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          personal.map(async (t) => [t, (await h.query(`SELECT COUNT(*) AS n FROM ${t}`))[0]!.n as number] as const),
        ),
      );
    const before = await counts();
    expect(
      Object.values(before).every((n) => n > 0),
      JSON.stringify(before),
    ).toBe(true);

    // three years (the longest default: consent records) and a month later, the hourly run
    h.clock.now += (3 * 365 + 31) * DAY;
    expect(timers.count).toBeGreaterThan(0);
    timers.fire(60 * 60 * 1000);
    await expect.poll(counts, { timeout: 10_000 }).toEqual(Object.fromEntries(personal.map((t) => [t, 0])));
  });

  it('the hourly run deletes presence rows after the presence window or an hour, whichever is longer, without a heartbeat', async () => {
    const timers = manualTimers();
    // a heartbeat every 30 min: the window is three of them, 90 min
    h = await startCollector({ timers, settings: { daemonrefresh: 1800 } });
    const visitor = h.visitor();
    await visitor.beat(PAGE, true);
    h.clock.now += 2000;
    await visitor.beat(PAGE);
    const admin = await signIn(h.url);
    const presence = async () => (await h.query('SELECT COUNT(*) AS n FROM presence'))[0]!.n;
    // 70 min on, past the hour but inside the window: the run (here on saving a setting) keeps them
    h.clock.now += 70 * 60 * 1000;
    const saved = (await (await admin.post('/admin/api/settings', { visitRetentionDays: '400' })).json()) as {
      deleted: Record<string, number>;
    };
    expect(saved.deleted.presence ?? 0).toBe(0);
    expect(await presence()).toBe(2);
    // past the window, no heartbeat since: the hourly run deletes them; the page view stays
    h.clock.now += 30 * 60 * 1000;
    timers.fire(60 * 60 * 1000);
    await expect.poll(presence, { timeout: 10_000 }).toBe(0);
    expect(await h.query('SELECT COUNT(*) AS n FROM page_views')).toEqual([{ n: 1 }]);
  });

  it('each default is shorter than forever and named in the settings: visits, clicks and consents', async () => {
    h = await startCollector();
    const res = await fetch(`${h.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: h.url, 'content-type': FORM_TYPE },
      body: new URLSearchParams({ password: ADMIN_PASSWORD }).toString(),
    });
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const settings = (await (await fetch(`${h.url}/admin/api/settings`, { headers: { cookie } })).json()) as Record<
      string,
      unknown
    >;
    expect(settings).toMatchObject({
      visitRetentionDays: 400,
      clickRetentionDays: 400,
      formRetentionDays: 1095,
      consentRetentionDays: 1095,
    });
    // 0 (kept forever) is no longer a choice
    const zero = await fetch(`${h.url}/admin/api/settings`, {
      method: 'POST',
      headers: { cookie, origin: h.url, 'content-type': FORM_TYPE },
      body: 'visitRetentionDays=0',
    });
    expect(zero.status).toBe(400);
  });

  it("past the page views' and clicks' retention, the day totals keep their counts but no address: no page, referring path, campaign or selector", async () => {
    const timers = manualTimers();
    h = await startCollector({ timers });
    await resetLinkVisit();
    const counted = await sums();
    // page, entry, exit, referrer, utm_campaign; the click (its page and selector in one row)
    expect((await named()).length).toBeGreaterThanOrEqual(6);
    expect(counted.visits.find((r) => r.metric === 'page')).toMatchObject({ n: 2 });
    // (signed in each time: an admin session lasts hours, the test's clock moves a year)
    const views = async () =>
      ((await (await (await signIn(h.url)).get('/admin/api/traffic?period=12m')).json()) as Traffic).summary.views;

    // within the retention (400 days by default), the hourly run leaves them
    h.clock.now += 395 * DAY;
    timers.fire(60 * 60 * 1000);
    await expect.poll(async () => (await h.query('SELECT COUNT(*) AS n FROM page_views'))[0]!.n, { timeout: 10_000 }).toBe(2);
    expect((await named()).length).toBeGreaterThanOrEqual(6);
    expect(await views()).toEqual({ current: 0, previous: 2 });

    // past it: the rows are gone, the totals of those days add up as before, with no address left
    h.clock.now += 10 * DAY;
    timers.fire(60 * 60 * 1000);
    await expect.poll(named, { timeout: 10_000 }).toEqual([]);
    expect(await h.query('SELECT COUNT(*) AS n FROM page_views')).toEqual([{ n: 0 }]);
    expect(await sums()).toEqual(counted);
    expect(await views()).toEqual({ current: 0, previous: 2 });
    // no label of an address-holding metric but the one without a name
    const labels = await h.query(
      "SELECT DISTINCT label FROM stats_visits WHERE metric IN ('page', 'entry', 'exit', 'referrer', 'utm_campaign')",
    );
    expect(labels).toEqual([{ label: '' }]);
    expect(await h.query('SELECT DISTINCT page, selector FROM stats_clicks')).toEqual([{ page: '', selector: '' }]);

    // the next run looks at the days from the month of its bound on (stats_unlabelled), not every old day
    expect(await h.query('SELECT tbl, through FROM stats_unlabelled ORDER BY tbl')).toEqual([
      { tbl: 'stats_clicks', through: '2025-05' },
      { tbl: 'stats_visits', through: '2025-05' },
    ]);
    expect(h.errors).toEqual([]);
  });

  it('erasing a visitor takes the labels its addresses gave off the day totals (pages with a query, referring paths); the counts stay', async () => {
    const timers = manualTimers();
    h = await startCollector({ timers });
    await resetLinkVisit();
    const counted = await sums();
    expect((await named()).length).toBeGreaterThanOrEqual(5);
    const admin = await signIn(h.url);
    const session = (await h.query('SELECT session_id AS id FROM page_views ORDER BY at LIMIT 1'))[0]!.id as string;
    const erased = await admin.post('/admin/api/erase', { visitor: session.slice(0, 12) });
    expect(erased.status).toBe(200);
    expect(await h.query('SELECT COUNT(*) AS n FROM page_views')).toEqual([{ n: 1 }]);
    // the campaign value stays (the site's own links set those); no other label names the visitor
    expect(await named()).toEqual([{ metric: 'utm_campaign', label: 'anna-schmidt' }]);
    expect(await sums()).toEqual(counted);
    // the plain page keeps its label
    expect(await h.query("SELECT label, n FROM stats_visits WHERE metric = 'page' ORDER BY label")).toEqual([
      { label: '', n: 1 },
      { label: 'http://lichtwerk.test/', n: 1 },
    ]);
    // past the retention, the rest is summed into the row the erasure made
    h.clock.now += 405 * DAY;
    timers.fire(60 * 60 * 1000);
    await expect
      .poll(() => h.query("SELECT label, n FROM stats_visits WHERE metric = 'page' AND length(day) = 10"), { timeout: 10_000 })
      .toEqual([{ label: '', n: 2 }]);
    expect(await sums()).toEqual(counted);
    expect(h.errors).toEqual([]);
  });
});
