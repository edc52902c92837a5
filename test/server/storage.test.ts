import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../collector/server/store';
import { migrate } from '../../collector/server/store/migrate';
import { sqliteEngine } from '../../collector/server/store/sqlite';
import { postgresEngine } from '../../collector/server/store/postgres';
import { describeAgent } from '../../collector/server/visitor/agent';
import { pageAddress } from '../../collector/server/visitor/page';
import { SESSION_COOKIE } from '../../collector/server/visitor/session';
import { sourceOf } from '../../collector/server/visitor/sources';
import { closeHarness, type Harness, newPostgresDatabase, startCollector, TEST_ENGINE } from '../support/collector';

// The storage engines' schema versions (collector/server/db.ts MIGRATIONS, schema_migrations), on the
// suite's engine, and the SQLite file an older collector wrote being taken over.
let h: Harness | null = null;
afterEach(async () => {
  await closeHarness(h);
  h = null;
});

const PAGE = 'http://lichtwerk.test/';

describe('schema migrations', () => {
  it('a new database gets every version once; a restart applies nothing again', async () => {
    h = await startCollector();
    const first = await h.query('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
    expect(first.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await h.query('SELECT COUNT(*) AS n FROM admin_attempts')).toEqual([{ n: 0 }]);
    h.clock.now += 60_000;
    h = await h.reopen();
    expect(await h.query('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')).toEqual(first);
  });

  it('takes over a SQLite file of the collector before migrations, with raw session ids: hashed, the visitor still known', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'pagepulse-old-')), 'old.sqlite');
    const raw = 'a'.repeat(20) + 'b0c1d2e3f4';
    const old = new Database(dbPath);
    old.exec(`
      CREATE TABLE sessions (id TEXT PRIMARY KEY, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,
        user_agent TEXT NOT NULL, device_width INTEGER, device_height INTEGER);
      CREATE TABLE heartbeats (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions (id), page TEXT NOT NULL,
        initialize INTEGER NOT NULL, modules INTEGER NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE clicks (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, page TEXT NOT NULL, selector TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE cookie_consents (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, category INTEGER, granted INTEGER NOT NULL,
        user_agent TEXT NOT NULL, ip TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE form_consents (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, url TEXT NOT NULL, form_id TEXT NOT NULL,
        form_name TEXT NOT NULL, fields TEXT NOT NULL, user_agent TEXT NOT NULL, ip TEXT NOT NULL, at INTEGER NOT NULL, deleted_at INTEGER);
    `);
    const at = Date.UTC(2025, 4, 1, 9, 59, 59);
    old.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, NULL, NULL)').run(raw, at, at, 'Old/1.0');
    // a page view and a click on the address with the bundle's debug switch and a campaign, then the page itself
    const tagged = `${PAGE}?pagepulse-debug=1&utm_source=old-news`;
    old.prepare('INSERT INTO heartbeats (session_id, page, initialize, modules, at) VALUES (?, ?, 1, 1, ?)').run(raw, tagged, at);
    old
      .prepare('INSERT INTO heartbeats (session_id, page, initialize, modules, at) VALUES (?, ?, 1, 1, ?)')
      .run(raw, PAGE, at + 1000);
    old.prepare('INSERT INTO clicks (session_id, page, selector, at) VALUES (?, ?, ?, ?)').run(raw, tagged, 'a.gallery', at);
    old.close();

    h = await startCollector({ engine: 'sqlite', dbPath });
    const hashed = createHash('sha256').update(raw).digest('hex');
    expect(await h.query('SELECT id FROM sessions')).toEqual([{ id: hashed }]);
    expect(await h.query('SELECT session_id, page FROM page_views ORDER BY at')).toEqual([
      { session_id: hashed, page: PAGE },
      { session_id: hashed, page: PAGE },
    ]);
    // migration 3: the tagged address is the page itself, its campaign in its column; migration 4:
    // one visit (a second apart) with its first page view's campaign
    expect(await h.query('SELECT session_id, views, entry_page, exit_page, utm_source FROM visits')).toEqual([
      { session_id: hashed, views: 2, entry_page: PAGE, exit_page: PAGE, utm_source: 'old-news' },
    ]);
    expect(await h.query('SELECT page FROM clicks')).toEqual([{ page: PAGE }]);
    expect((await h.query('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    // migration 3's columns: the old session's user agent parsed once (bowser knows no `Old/1.0`)
    expect(await h.query('SELECT device, browser FROM sessions')).toEqual([{ device: 'unknown', browser: null }]);
    // the visitor's browser still sends the raw value: the same visitor, not a second one
    const res = await fetch(`${h.url}/index.php?option=com_jrealtimeanalytics&format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${SESSION_COOKIE}=${raw}` },
      body: `task=stream.display&nowpage=${encodeURIComponent(PAGE)}&initialize=&module_available=1`,
    });
    expect(((await res.json()) as { 'data-bind': Record<string, string> })['data-bind']).toMatchObject({
      users_onpage: '1',
      users_total: '1',
    });
  });

  it('migration 3 on a database of version 2: stored user agents described, tagged page addresses normalised', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagepulse-v2-'));
    const databaseUrl = TEST_ENGINE === 'postgres' ? await newPostgresDatabase() : null;
    const dbPath = join(dir, 'v2.sqlite');
    const v2 = databaseUrl ? postgresEngine(databaseUrl) : sqliteEngine(new Database(dbPath), dbPath);
    const at = Date.UTC(2025, 4, 1, 9, 0, 0);
    const parsers = { agent: describeAgent, page: pageAddress, source: sourceOf };
    await migrate(
      v2.sql,
      migrations(parsers).filter((m) => m.version <= 2),
      at,
    );
    const id = 'f'.repeat(64);
    const agent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
    await v2.sql.run('INSERT INTO sessions (id, first_seen, last_seen, user_agent) VALUES (?, ?, ?, ?)', [id, at, at, agent]);
    for (const [page, initialize] of [
      [`${PAGE}?utm_medium=email&pagepulse-debug=1&id=7`, 1],
      [`${PAGE}?utm_medium=email&pagepulse-debug=1&id=7`, 0],
    ] as const)
      await v2.sql.run('INSERT INTO heartbeats (session_id, page, initialize, modules, at) VALUES (?, ?, ?, 1, ?)', [
        id,
        page,
        initialize,
        at,
      ]);
    await v2.close();

    h = await startCollector({ dbPath, databaseUrl }, dir);
    expect(await h.query('SELECT device, browser FROM sessions')).toEqual([{ device: 'desktop', browser: 'Firefox' }]);
    // the page view's campaign moves to its visit; the presence beat is no page view
    expect(await h.query('SELECT page FROM page_views')).toEqual([{ page: `${PAGE}?id=7` }]);
    expect(await h.query('SELECT entry_page, utm_medium, device, browser FROM visits')).toEqual([
      { entry_page: `${PAGE}?id=7`, utm_medium: 'email', device: 'desktop', browser: 'Firefox' },
    ]);
  });
});
