import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { createCollector, type CollectorOptions } from '../../collector/server/app';
import { encodeForm, type FormValue } from './jquery-param';
import { createDatabase, executePostgres, queryPostgres } from './postgres';

/** The storage engine of the collector suite: SQLite, or PostgreSQL when PAGEPULSE_TEST_ENGINE=postgres. */
export type Engine = 'sqlite' | 'postgres';
export const TEST_ENGINE: Engine = process.env.PAGEPULSE_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** The analytics component's endpoint, as the bundle calls it. */
export const STREAM = '/index.php?option=com_jrealtimeanalytics&format=json';
/** The form content type the bundle sends. */
export const FORM_TYPE = 'application/x-www-form-urlencoded; charset=UTF-8';

/** The sites of the tests' page addresses (PAGEPULSE_SITES of every test collector, unless a test sets its own). */
export const TEST_SITES = ['http://lichtwerk.test', 'http://site.test'];

/** The admin password every test collector gets (PAGEPULSE_ADMIN_PASSWORD), unless a test sets another. */
export const ADMIN_PASSWORD = 'Lichtwerk-Admin-Test-2025';

/** A signed-in admin: requests carry the session cookie and our own Origin, as the admin app's would. */
export interface Admin {
  cookie: string;
  get(path: string): Promise<Response>;
  post(path: string, fields: Record<string, string>): Promise<Response>;
}

/** Sign `page` in through the admin's German login form at `base` (a collector's url); resolves at the overview. */
export async function signInPage(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/admin/login`);
  await page.fill('#password', ADMIN_PASSWORD);
  await Promise.all([page.waitForURL(`${base}/admin/`), page.getByRole('button', { name: 'Anmelden' }).click()]);
}

/** Sign in at POST /admin/login; throws unless the collector answers 303 with a session cookie. */
export async function signIn(base: string, password = ADMIN_PASSWORD): Promise<Admin> {
  const origin = new URL(base).origin;
  const res = await fetch(`${base}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password }).toString(),
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in answered ${res.status}`);
  return {
    cookie,
    get: (path) => fetch(base + path, { redirect: 'manual', headers: { cookie } }),
    post: (path, fields) =>
      fetch(base + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
  };
}

/** A browser stand-in: keeps the session cookie the collector issues, like a cookie jar would. */
export interface Visitor {
  cookie: string | null;
  get(path: string): Promise<Response>;
  /** POST fields form-encoded exactly as the bundle does (jQuery's $.param). */
  post(path: string, fields: ReadonlyArray<readonly [string, FormValue]>): Promise<Response>;
  /** stream.display, as the bundle's first (or later) heartbeat. */
  beat(page: string, first?: boolean): Promise<Record<string, unknown>>;
}

/**
 * A collector on a free port with a clock the test moves, on a temporary SQLite file or (in the
 * suite's PostgreSQL pass) a fresh PostgreSQL database.
 */
export interface Harness {
  url: string;
  engine: Engine;
  /** The SQLite file; on PostgreSQL a file in the harness's temp folder that is never created. */
  dbPath: string;
  /** The PostgreSQL database's URL, or null on SQLite. */
  databaseUrl: string | null;
  /** Rows of one SQL query on the collector's database, whichever the engine (numbers as numbers). */
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  /** Statements that write (test data in bulk), `?` placeholders, each list of values one run, in one transaction. */
  execute(sql: string, rows: ReadonlyArray<readonly unknown[]>): Promise<void>;
  clock: { now: number };
  errors: unknown[];
  /** Every route the collector has (Collector.routes). */
  routes: readonly string[];
  visitor(): Visitor;
  close(): Promise<void>;
  /** Start a second collector on the same file (after close), as a restart would. */
  reopen(): Promise<Harness>;
  /** Count the days that ended (on the collector's clock) into day totals now, as its ten-minute run does. */
  buildTotals(): Promise<void>;
}

/** A new PostgreSQL database in the suite's cluster (test/support/postgres-setup.ts). */
export function newPostgresDatabase(): Promise<string> {
  return createDatabase(inject('postgresUrl'));
}

/**
 * Start a collector in-process; `dbPath` defaults to a fresh file in the OS temp folder, and in the
 * PostgreSQL pass `databaseUrl` to a fresh database. `engine: 'sqlite'` pins SQLite (a test of the
 * SQLite file itself).
 */
export async function startCollector(
  options: CollectorOptions & { engine?: Engine } = {},
  dir = mkdtempSync(join(tmpdir(), 'pagepulse-collector-')),
): Promise<Harness> {
  const { engine = TEST_ENGINE, ...collectorOptions } = options;
  const dbPath = options.dbPath ?? join(dir, 'test.sqlite');
  const databaseUrl = engine === 'postgres' ? (options.databaseUrl ?? (await newPostgresDatabase())) : null;
  const clock = { now: Date.UTC(2025, 4, 1, 10, 0, 0) };
  const errors: unknown[] = [];
  const collector = createCollector({
    now: () => clock.now,
    onError: (e) => errors.push(e),
    adminPassword: ADMIN_PASSWORD,
    // the sites the tests' pages are of, besides the collector's own origin
    sites: TEST_SITES,
    ...collectorOptions,
    dbPath,
    databaseUrl,
  });
  const { url } = await collector.listen(0, '127.0.0.1');
  // The tests' fetch and the collector share one event loop. Node's server closes an idle kept-alive
  // connection after 5 s, fetch (undici) after the 3 s the server's Keep-Alive header allows, on
  // coarse timers; after the loop was held a few seconds (SQLite's synchronous writes on a loaded
  // machine) both are due at once, and a POST sent on the connection the server is closing fails
  // with ECONNRESET, which fetch does not retry (filtered-totals.test.ts, once, CI with two CPU hogs
  // and load 8, 2026-11-28). The server here keeps idle connections a minute: the client closes first.
  collector.server.keepAliveTimeout = 60_000;
  let closed = false;
  const harness: Harness = {
    url,
    engine,
    dbPath,
    databaseUrl,
    query: (sql) => queryDatabase({ dbPath, databaseUrl }, sql),
    execute: (sql, rows) =>
      databaseUrl ? executePostgres(databaseUrl, sql, rows) : Promise.resolve(executeSqlite(dbPath, sql, rows)),
    clock,
    errors,
    routes: collector.routes,
    visitor: () => visitorOf(url),
    buildTotals: () => collector.buildTotals(),
    async close() {
      if (closed) return;
      closed = true;
      await collector.close();
    },
    async reopen() {
      await harness.close();
      const next = await startCollector({ ...options, dbPath, databaseUrl, engine }, dir);
      next.clock.now = clock.now;
      return next;
    },
  };
  return harness;
}

/** Rows of one query on a collector's database: the PostgreSQL one when a URL is given, else the SQLite file. */
export function queryDatabase(
  where: { dbPath: string; databaseUrl?: string | null },
  sql: string,
): Promise<Array<Record<string, unknown>>> {
  return where.databaseUrl ? queryPostgres(where.databaseUrl, sql) : Promise.resolve(querySqlite(where.dbPath, sql));
}

/** Rows of one query on a SQLite file, opened read-only. */
export function querySqlite(dbPath: string, sql: string): Array<Record<string, unknown>> {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

/** Write rows into a SQLite file beside the running collector (WAL: it keeps answering). */
function executeSqlite(dbPath: string, sql: string, rows: ReadonlyArray<readonly unknown[]>): void {
  const db = new Database(dbPath);
  try {
    db.pragma('busy_timeout = 10000');
    const statement = db.prepare(sql);
    db.transaction(() => {
      for (const row of rows) statement.run(...row);
    })();
  } finally {
    db.close();
  }
}

/** Remove a harness's temp folder (call after close). */
export function removeDir(dbPath: string): void {
  rmSync(join(dbPath, '..'), { recursive: true, force: true });
}

/** After a test (or a file): close its collector, remove its database and expect it logged no error. */
export async function closeHarness(h: Harness | null): Promise<void> {
  if (!h) return;
  await h.close();
  removeDir(h.dbPath);
  expect(h.errors).toEqual([]);
}

function visitorOf(base: string): Visitor {
  const visitor: Visitor = {
    cookie: null,
    async get(path) {
      return keep(await fetch(base + path, { headers: headers() }));
    },
    async post(path, fields) {
      return keep(
        await fetch(base + path, {
          method: 'POST',
          headers: { ...headers(), 'content-type': FORM_TYPE },
          body: encodeForm(fields),
        }),
      );
    },
    async beat(page, first = false) {
      const fields: Array<[string, FormValue]> = [
        ['task', 'stream.display'],
        ['nowpage', page],
        ['initialize', first ? 'true' : ''],
        ['module_available', 1],
      ];
      if (first) fields.push(['device_width', 1280], ['device_height', 800]);
      const res = await visitor.post(STREAM, fields);
      if (res.status !== 200) throw new Error(`heartbeat answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    },
  };
  const headers = (): Record<string, string> => ({
    'x-requested-with': 'XMLHttpRequest',
    ...(visitor.cookie ? { cookie: visitor.cookie } : {}),
  });
  const keep = (res: Response): Response => {
    const set = res.headers.get('set-cookie');
    if (set) visitor.cookie = set.split(';')[0]!;
    return res;
  };
  return visitor;
}

/** A raw HTTP request: the path goes on the wire as written (fetch would normalise `..`). */
export function rawRequest(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: Buffer[] },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end(options.body);
  });
}
