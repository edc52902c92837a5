import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCollector, type CollectorOptions } from '../../collector/server/app';
import { encodeForm, type FormValue } from './jquery-param';

/** The analytics component's endpoint, as the bundle calls it. */
export const STREAM = '/index.php?option=com_jrealtimeanalytics&format=json';
/** The form content type the bundle sends. */
export const FORM_TYPE = 'application/x-www-form-urlencoded; charset=UTF-8';

/** The admin password every test collector gets (PAGEPULSE_ADMIN_PASSWORD), unless a test sets another. */
export const ADMIN_PASSWORD = 'Lichtwerk-Admin-Test-2025';

/** A signed-in admin: requests carry the session cookie and our own Origin, as the admin app's would. */
export interface Admin {
  cookie: string;
  get(path: string): Promise<Response>;
  post(path: string, fields: Record<string, string>): Promise<Response>;
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

/** A collector on a free port with a temporary SQLite file and a clock the test moves. */
export interface Harness {
  url: string;
  dbPath: string;
  clock: { now: number };
  errors: unknown[];
  /** Every route the collector has (Collector.routes). */
  routes: readonly string[];
  visitor(): Visitor;
  close(): Promise<void>;
  /** Start a second collector on the same file (after close), as a restart would. */
  reopen(): Promise<Harness>;
}

/** Start a collector in-process; `dbPath` defaults to a fresh file in the OS temp folder. */
export async function startCollector(
  options: CollectorOptions = {},
  dir = mkdtempSync(join(tmpdir(), 'pagepulse-collector-')),
): Promise<Harness> {
  const dbPath = options.dbPath ?? join(dir, 'test.sqlite');
  const clock = { now: Date.UTC(2025, 4, 1, 10, 0, 0) };
  const errors: unknown[] = [];
  const collector = createCollector({
    now: () => clock.now,
    onError: (e) => errors.push(e),
    adminPassword: ADMIN_PASSWORD,
    ...options,
    dbPath,
  });
  const { url } = await collector.listen(0, '127.0.0.1');
  let closed = false;
  const harness: Harness = {
    url,
    dbPath,
    clock,
    errors,
    routes: collector.routes,
    visitor: () => visitorOf(url),
    async close() {
      if (closed) return;
      closed = true;
      await collector.close();
    },
    async reopen() {
      await harness.close();
      const next = await startCollector({ ...options, dbPath }, dir);
      next.clock.now = clock.now;
      return next;
    },
  };
  return harness;
}

/** Remove a harness's temp folder (call after close). */
export function removeDir(dbPath: string): void {
  rmSync(join(dbPath, '..'), { recursive: true, force: true });
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
