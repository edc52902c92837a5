import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Traffic } from '../../collector/shared/admin-api';
import { migrations } from '../../collector/server/store';
import { migrate } from '../../collector/server/store/migrate';
import { postgresEngine } from '../../collector/server/store/postgres';
import { sqliteEngine } from '../../collector/server/store/sqlite';
import { describeAgent } from '../../collector/server/visitor/agent';
import { pageAddress } from '../../collector/server/visitor/page';
import { visitorId } from '../../collector/server/visitor/session';
import { sourceOf } from '../../collector/server/visitor/sources';
import {
  closeHarness,
  FORM_TYPE,
  type Harness,
  newPostgresDatabase,
  signIn,
  startCollector,
  STREAM,
  TEST_ENGINE,
} from '../support/collector';

// Where visitors came from (docs/collector.md "Sources"): the page view's `referrer` field, stored
// as host, path and source name on its visit; never the request's Referer header. Erasure and
// retention take it with the visit.

const SITE = 'http://lichtwerk.test';
const PAGE = `${SITE}/kontakt`;
const DAY = 24 * 60 * 60 * 1000;

let h: Harness;
afterEach(() => closeHarness(h));

/** A page view as the bundle sends it, with `referrer` when given, and its later beat (which never carries it). */
async function visit(referrer: string | null, headers: Record<string, string> = {}) {
  const visitor = h.visitor();
  const first = await fetch(h.url + STREAM, {
    method: 'POST',
    headers: { 'content-type': FORM_TYPE, 'x-requested-with': 'XMLHttpRequest', referer: PAGE, ...headers },
    body:
      `task=stream.display&nowpage=${encodeURIComponent(PAGE)}&initialize=true&module_available=0&device_width=1280&device_height=800` +
      (referrer === null ? '' : `&referrer=${encodeURIComponent(referrer)}`),
  });
  expect(first.status).toBe(200);
  visitor.cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  h.clock.now += 2000;
  await visitor.beat(PAGE);
  return visitor;
}

const visits = () =>
  h.query('SELECT referrer, referrer_path, source FROM visits ORDER BY id') as Promise<
    Array<{ referrer: string | null; referrer_path: string | null; source: string | null }>
  >;

describe('the referrer field', () => {
  it('stores host, path (no query, no fragment) and source of another site; nothing for the site itself, the header, or junk', async () => {
    h = await startCollector();
    await visit('https://www.google.de/search?q=geheim#x');
    await visit('https://blog.example.org/2025/05/lichtwerk?utm=1');
    await visit(`${SITE}/galerie.html`); // the site itself
    await visit(null, { referer: 'https://www.bing.com/' }); // a header, no field
    await visit('javascript:alert(1)');
    await visit(`https://a.test/${'x'.repeat(3000)}`);
    await visit('nicht eine Adresse');
    expect(await visits()).toEqual([
      { referrer: 'www.google.de', referrer_path: '/search', source: 'Google' },
      { referrer: 'blog.example.org', referrer_path: '/2025/05/lichtwerk', source: 'blog.example.org' },
      ...Array.from({ length: 5 }, () => ({ referrer: null, referrer_path: null, source: null })),
    ]);
    // the query and fragment are nowhere
    expect(JSON.stringify(await h.query('SELECT * FROM visits'))).not.toContain('geheim');

    const admin = await signIn(h.url);
    const traffic = (await (await admin.get('/admin/api/traffic?period=today')).json()) as Traffic;
    expect(traffic.sources).toEqual([
      { label: 'Google', current: 1, previous: 0 },
      { label: 'blog.example.org', current: 1, previous: 0 },
    ]);
    expect(traffic.referrers).toEqual([
      { label: 'blog.example.org/2025/05/lichtwerk', current: 1, previous: 0 },
      { label: 'www.google.de/search', current: 1, previous: 0 },
    ]);
  });

  it("a later page view's referrer does not change the visit's source: the visit keeps its first", async () => {
    h = await startCollector();
    const visitor = await visit('https://duckduckgo.com/');
    h.clock.now += 60_000;
    await visitor.post(STREAM, [
      ['task', 'stream.display'],
      ['nowpage', `${SITE}/galerie.html`],
      ['initialize', 'true'],
      ['module_available', 0],
      ['referrer', 'https://www.facebook.com/'],
    ]);
    expect(await visits()).toEqual([{ referrer: 'duckduckgo.com', referrer_path: '/', source: 'DuckDuckGo' }]);
  });

  it('erasure removes it with the visitor, and leaves the others', async () => {
    h = await startCollector();
    const erika = await visit('https://www.linkedin.com/feed/');
    await visit('https://t.co/abc');
    const admin = await signIn(h.url);
    const erased = await admin.post('/admin/api/erase', { visitor: visitorId(erika.cookie!.split('=')[1]!) });
    expect(erased.status).toBe(200);
    expect(await visits()).toEqual([{ referrer: 't.co', referrer_path: '/abc', source: 'X (Twitter)' }]);
    expect(JSON.stringify(await h.query('SELECT * FROM visits'))).not.toContain('linkedin');
  });

  it('retention removes it with the visit once the visit is older than the setting', async () => {
    const jobs: Array<() => void> = [];
    h = await startCollector({ timers: { every: (_ms, run) => (jobs.push(run), () => {}) } });
    await visit('https://www.youtube.com/watch');
    h.clock.now += 200 * DAY;
    await visit('https://www.reddit.com/r/berlin/');
    // the default keeps visits 400 days: the first goes after 401, the second stays
    h.clock.now += 201 * DAY;
    for (const run of jobs) run();
    await expect
      .poll(visits, { timeout: 10_000 })
      .toEqual([{ referrer: 'www.reddit.com', referrer_path: '/r/berlin/', source: 'Reddit' }]);
  });
});

describe('migration 5', () => {
  it('gives visits and built day totals stored before it their source names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagepulse-v4-'));
    const databaseUrl = TEST_ENGINE === 'postgres' ? await newPostgresDatabase() : null;
    const dbPath = join(dir, 'v4.sqlite');
    const v4 = databaseUrl ? postgresEngine(databaseUrl) : sqliteEngine(new Database(dbPath), dbPath);
    const at = Date.UTC(2025, 4, 1, 9, 0, 0);
    const parsers = { agent: describeAgent, page: pageAddress, source: sourceOf };
    await migrate(
      v4.sql,
      migrations(parsers).filter((m) => m.version <= 4),
      at,
    );
    const id = 'e'.repeat(64);
    await v4.sql.run('INSERT INTO sessions (id, first_seen, last_seen, user_agent) VALUES (?, ?, ?, ?)', [id, at, at, 'x']);
    for (const referrer of ['www.google.com', 'news.google.de', null])
      await v4.sql.run(
        `INSERT INTO visits (session_id, started_at, last_view_at, views, entry_page, exit_page, referrer) VALUES (?, ?, ?, 1, ?, ?, ?)`,
        [id, at, at, PAGE, PAGE, referrer],
      );
    // a built day (and month) whose referrer rows are host labels
    for (const [day, label, n] of [
      ['2025-04-30', 'www.google.com', 2],
      ['2025-04-30', 'google.de', 3],
      ['2025-04-30', 'mail.example.net', 1],
      ['2025-04', 'www.google.com', 7],
    ] as const)
      await v4.sql.run("INSERT INTO stats_visits (day, metric, label, n, total) VALUES (?, 'referrer', ?, ?, 0)", [
        day,
        label,
        n,
      ]);
    await v4.close();

    h = await startCollector({ dbPath, databaseUrl }, dir);
    expect(await visits()).toEqual([
      { referrer: 'www.google.com', referrer_path: null, source: 'Google' },
      { referrer: 'news.google.de', referrer_path: null, source: 'Google' },
      { referrer: null, referrer_path: null, source: null },
    ]);
    const rows = await h.query("SELECT day, label, n FROM stats_visits WHERE metric = 'source' ORDER BY day, label");
    expect(rows.map((r) => [r.day, r.label, Number(r.n)])).toEqual([
      ['2025-04', 'Google', 7],
      ['2025-04-30', 'Google', 5],
      ['2025-04-30', 'mail.example.net', 1],
    ]);
  });
});
