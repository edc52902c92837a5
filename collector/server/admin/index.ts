import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AdminSettings, ConsentLog, Erased, Online, RetentionDays, SavedSettings } from '../../shared/admin-api';
import { serverTimeZone, startOfDay, validTimeZone } from '../calendar';
import { originOf, ownOrigin, sameOrigin } from '../edge/client';
import { HttpError, isFormEncoded, parseForm, readBody, send, sendJson } from '../edge/http';
import { serveStatic, type Mount } from '../edge/static';
import type { ConsentEntry, ConsentFilter, Store } from '../store';
import { CSV_HEADER, csvLine } from './csv';
import { createDashboard } from './dashboard';
import { createLogin } from './login';
import { LOGIN_CSS, loginPage, type LoginNotice } from './login-page';
import { parseDay, periodOf, type Period } from './period';
import { MAX_RETENTION_DAYS, RETENTION, retentionDays, retentionPlan } from './retention';

export { DEVICE_MS, FAILURE_WINDOW_MS, MIN_PASSWORD_CHARS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './auth';

/**
 * The admin feature: sign-in, the built React app and its JSON API, the consent CSV. Everything
 * but the sign-in page and the app's code needs a session; nothing here is reached by a visitor's
 * call, and nothing of the visitor feature is imported here (the app wires both).
 */

/**
 * Every admin answer: no script or style but our own files, never framed, no referrer to other sites (admin URLs
 * carry search terms), never cached. No CORS header is ever sent from /admin.
 */
const ADMIN_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` with our own form posts
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};
/** Rows of the clicks lists: a dashboard, not a report. */
const CLICK_PAGES = 20;
const CLICKS_PER_PAGE = 10;
/** Consent log rows per JSON answer (the CSV has them all). */
const DEFAULT_LOG_ROWS = 200;
const MAX_LOG_ROWS = 2000;
/** A pseudonym is the first 12 hex characters of the session's SHA-256 (visitor/session.ts). */
const PSEUDONYM = /^[0-9a-f]{12}$/;
/** A consent ID as the visitor tasks store it (visitor/tasks.ts). */
const CONSENT_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** What the admin area needs from the collector. */
export interface AdminDeps {
  store: Store;
  now: () => number;
  /** Repository root: the built admin app is in `dist/admin/`. */
  root: string;
  /** Trust X-Forwarded-For/-Proto/-Host (only behind a reverse proxy that sets them). */
  trustProxy: boolean;
  /** How long a session counts as online after its last heartbeat (the visitor settings' presence window). */
  presenceWindowMs: number;
  /** The site's other origins (PAGEPULSE_SITES): their pages get a heatmap link. */
  sites: readonly string[];
  /** The site's time zone changed (the day totals are counted again). */
  onTimeZone: (zone: string) => void;
}

/** The pseudonym of a stored session: its first 12 hex characters. */
const pseudonymOf = (session: string) => session.slice(0, 12);

/** The page's address with `#pagepulse-heatmap`, which makes the bundle draw its stored clicks. */
function heatmapLink(page: string): string {
  const url = new URL(page);
  url.hash = 'pagepulse-heatmap';
  return url.href;
}

/** The admin area on the store. */
export function createAdmin({ store, now, root, trustProxy, presenceWindowMs, sites, onTimeZone }: AdminDeps) {
  const login = createLogin(store.admin, store.settings, trustProxy);
  const dashboard = createDashboard(store.visits, store.clicks, store.consents);
  const siteOrigins = new Set(sites.map(originOf).filter((o): o is string => o !== null));
  const appDir = join(root, 'dist', 'admin');
  const assets: Mount[] = [{ prefix: '/admin/assets/', dir: join(appDir, 'assets') }];

  /** The site's time zone (`time_zone`; default the server's): the admin area's days, hours and months. */
  const timeZone = async (): Promise<string> => (await store.settings.get('time_zone')) ?? serverTimeZone();
  /** The period a read asks for, in the site's time zone. */
  const period = async (params: URLSearchParams) => periodOf(params, now(), await timeZone(), ADMIN_HEADERS);
  /** What the app shows of the period: its name, zone, unit and days. */
  const described = (p: Period) => ({ name: p.name, timeZone: p.timeZone, unit: p.unit, days: p.days });
  const settingsNow = async (): Promise<AdminSettings> => ({
    timeZone: await timeZone(),
    ...(await retentionDays(store.settings)),
  });
  /** The retention run now; null when another process (PostgreSQL) is running it and `wait` is false. */
  const applyRetention = async (wait: boolean) => store.retain(retentionPlan(await retentionDays(store.settings), now()), wait);

  const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void =>
    send(res, status, 'text/html; charset=utf-8', body, { ...ADMIN_HEADERS, ...headers });
  const redirect = (res: ServerResponse, location: string, headers: OutgoingHttpHeaders = {}): void =>
    void res.writeHead(303, { ...ADMIN_HEADERS, location, ...headers }).end();
  const json = (res: ServerResponse, body: unknown, status = 200): void => sendJson(res, status, body, ADMIN_HEADERS);

  async function form(req: IncomingMessage): Promise<URLSearchParams> {
    const body = await readBody(req);
    if (body !== '' && !isFormEncoded(req)) throw new HttpError(415, 'expected application/x-www-form-urlencoded', ADMIN_HEADERS);
    return parseForm(body);
  }

  /**
   * The consent log's filter: the period's range when `period` is given (the app's picker), else
   * `from`/`to` as days in the site's time zone (either may be left out); and a pseudonym
   * (`visitor`) or a consent ID (`consent`).
   */
  async function consentFilter(params: URLSearchParams): Promise<ConsentFilter> {
    const visitor = params.get('visitor')?.trim().toLowerCase() || null;
    if (visitor !== null && !PSEUDONYM.test(visitor))
      throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS);
    const consentId = params.get('consent')?.trim() || null;
    if (consentId !== null && !CONSENT_ID.test(consentId))
      throw new HttpError(400, 'consent must be a consent ID', ADMIN_HEADERS);
    if (params.get('period')) {
      const { start, end } = (await period(params)).current;
      return { from: start, to: end, visitor, consentId };
    }
    const zone = await timeZone();
    const day = (name: string, after: number): number | null => {
      const value = params.get(name)?.trim();
      if (!value) return null;
      const { y, m, d } = parseDay(value, name, ADMIN_HEADERS);
      return startOfDay(zone, { y, m, d: d + after });
    };
    return { from: day('from', 0) ?? 0, to: day('to', 1) ?? Number.MAX_SAFE_INTEGER, visitor, consentId };
  }

  const logEntry = (row: ConsentEntry) => ({
    kind: row.kind,
    id: row.id,
    at: new Date(row.at).toISOString(),
    visitor: pseudonymOf(row.session),
    consentId: row.consentId,
    category: row.category,
    granted: row.granted,
    userAgent: row.userAgent,
    url: row.url,
    formId: row.formId,
    formName: row.formName,
    fields: row.fields,
    deletedAt: row.deletedAt === null ? null : new Date(row.deletedAt).toISOString(),
  });

  /**
   * The consent CSV, streamed: a page of records at a time from the readers' side, each written
   * when the connection has taken the one before (so a slow download holds one page in memory, and
   * heartbeats are answered between pages).
   */
  async function exportCsv(req: IncomingMessage, res: ServerResponse, params: URLSearchParams): Promise<void> {
    const filter = await consentFilter(params);
    res.writeHead(200, {
      ...ADMIN_HEADERS,
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="pagepulse-consents-${new Date(now()).toISOString().slice(0, 10)}.csv"`,
    });
    if (req.method === 'HEAD') return void res.end();
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    const write = async (text: string) => {
      if (!res.write(text)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    };
    await write(CSV_HEADER);
    for await (const page of store.consents.log(filter)) {
      if (res.destroyed) return;
      await write(page.map((row) => csvLine(row, pseudonymOf(row.session))).join(''));
    }
    res.end();
  }

  /** JSON reads of the signed-in app, by path. */
  const READS: Record<string, (params: URLSearchParams, req: IncomingMessage) => Promise<unknown>> = {
    '/admin/api/online': async (): Promise<Online> => ({
      ...(await store.visits.online(now() - presenceWindowMs)),
      at: new Date(now()).toISOString(),
    }),
    '/admin/api/traffic': async (params) => {
      const p = await period(params);
      return { period: described(p), ...(await dashboard.traffic(p)) };
    },
    '/admin/api/clicks': async (params, req) => {
      const p = await period(params);
      const own = ownOrigin(req, trustProxy);
      // a link only for pages of the site: a stored address is a visitor's word
      const href = (page: string) => {
        const origin = originOf(page);
        return origin !== null && (origin === own || siteOrigins.has(origin)) ? heatmapLink(page) : null;
      };
      return { period: described(p), pages: await dashboard.clicks(p, CLICKS_PER_PAGE, CLICK_PAGES, href) };
    },
    '/admin/api/consent-stats': async (params) => {
      const p = await period(params);
      return { period: described(p), ...(await dashboard.consentStats(p)) };
    },
    '/admin/api/consents': async (params): Promise<ConsentLog> => {
      const limitText = params.get('limit')?.trim();
      const limit = limitText ? Number(limitText) : DEFAULT_LOG_ROWS;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_ROWS)
        throw new HttpError(400, `limit must be 1 to ${MAX_LOG_ROWS}`, ADMIN_HEADERS);
      const filter = await consentFilter(params);
      const consents: ConsentLog['consents'] = [];
      for await (const page of store.consents.log(filter, limit, Math.min(limit, 1000))) consents.push(...page.map(logEntry));
      return {
        // the app shows each time on the site's clock, and the period's days
        timeZone: await timeZone(),
        ...(params.get('period') ? { period: described(await period(params)) } : {}),
        consents,
      };
    },
    '/admin/api/settings': () => settingsNow(),
  };

  /** State-changing calls of the signed-in app (form-encoded POST), by path. */
  const WRITES: Record<string, (params: URLSearchParams) => Promise<unknown>> = {
    '/admin/api/erase': async (params): Promise<Erased> => {
      const consent = params.get('consent')?.trim();
      if (consent) {
        if (!CONSENT_ID.test(consent)) throw new HttpError(400, 'consent must be a consent ID', ADMIN_HEADERS);
        return store.erase({ consentId: consent });
      }
      const visitor = params.get('visitor')?.trim().toLowerCase() ?? '';
      if (!PSEUDONYM.test(visitor)) throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS);
      return store.erase({ pseudonym: visitor });
    },
    '/admin/api/settings': async (params): Promise<SavedSettings> => {
      // each field optional; a given one must be 1 to MAX_RETENTION_DAYS (nothing is kept forever)
      const given = (Object.keys(RETENTION) as Array<keyof RetentionDays>).filter((name) => params.has(name));
      const zoneText = params.get('timeZone')?.trim();
      const zone = zoneText === undefined ? null : validTimeZone(zoneText);
      if (zoneText !== undefined && zone === null)
        throw new HttpError(400, 'timeZone must be an IANA time zone such as Europe/Berlin', ADMIN_HEADERS);
      if (given.length === 0 && zone === null)
        throw new HttpError(400, `name a setting: timeZone or ${Object.keys(RETENTION).join(', ')}`, ADMIN_HEADERS);
      const values = given.map((name) => {
        const text = params.get(name)!.trim();
        const days = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
        if (!(days >= 1 && days <= MAX_RETENTION_DAYS))
          throw new HttpError(400, `${name} must be 1 to ${MAX_RETENTION_DAYS}`, ADMIN_HEADERS);
        return [RETENTION[name].key, String(days)] as const;
      });
      const before = await timeZone();
      await store.settings.setAll([...values, ...(zone === null ? [] : [['time_zone', zone] as const])]);
      if (zone !== null && zone !== before) onTimeZone(zone);
      return { ...(await settingsNow()), deleted: (await applyRetention(true)) ?? {} };
    },
  };

  return {
    /** Every path the admin area answers (the privacy test walks them all). */
    paths: [
      '/admin',
      '/admin/',
      '/admin/index.html',
      '/admin/login',
      '/admin/login.css',
      '/admin/logout',
      '/admin/consents.csv',
      '/admin/assets/',
      ...Object.keys(READS),
      ...Object.keys(WRITES),
    ] as readonly string[],
    /** Set the password up (returns a generated one to print once). */
    init: (passwordFromEnv: string | null) => login.init(passwordFromEnv),
    /** The retention run (the hourly job's work); null when another process runs it now. */
    applyRetention,
    /** The site's time zone. */
    timeZone,
    /** Answer a request under /admin; false when the path is not ours. */
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
      const path = url.pathname;
      if (path !== '/admin' && !path.startsWith('/admin/')) return false;
      const method = req.method ?? 'GET';
      const reading = method === 'GET' || method === 'HEAD';

      // public: the sign-in page, its styles, and the app's code (no data in either)
      if (path === '/admin') return (redirect(res, '/admin/'), true);
      if (path === '/admin/login.css' && reading)
        return (send(res, 200, 'text/css; charset=utf-8', LOGIN_CSS, ADMIN_HEADERS), true);
      if (path.startsWith('/admin/assets/') && reading) return (await serveStatic(req, res, path, '', assets), true);
      if (path === '/admin/login') {
        if (method === 'POST') {
          const result = await login.signIn(req, async () => (await form(req)).get('password') ?? '', now);
          if (result.ok) return (redirect(res, '/admin/', { 'set-cookie': result.cookies }), true);
          const retry: Record<string, string> = result.retryAfter ? { 'retry-after': String(result.retryAfter) } : {};
          return (html(res, result.status, loginPage(result.notice), retry), true);
        }
        if (!reading) throw new HttpError(405, 'method not allowed', { allow: 'GET, POST', ...ADMIN_HEADERS });
        const notice: LoginNotice = url.searchParams.get('signed-out') === '1' ? 'signed-out' : null;
        return (html(res, 200, loginPage(notice)), true);
      }
      if (path === '/admin/logout') {
        if (method !== 'POST') throw new HttpError(405, 'method not allowed', { allow: 'POST', ...ADMIN_HEADERS });
        if (!sameOrigin(req, trustProxy)) throw new HttpError(403, 'cross-origin request refused', ADMIN_HEADERS);
        return (redirect(res, '/admin/login?signed-out=1', { 'set-cookie': await login.signOut(req) }), true);
      }

      // everything else needs a live session
      if (!(await login.signedIn(req, now()))) {
        if (reading && (path === '/admin/' || path === '/admin/index.html')) return (redirect(res, '/admin/login'), true);
        throw new HttpError(401, 'sign in first', ADMIN_HEADERS);
      }
      if (!reading && !sameOrigin(req, trustProxy)) throw new HttpError(403, 'cross-origin request refused', ADMIN_HEADERS);

      if (path === '/admin/' || path === '/admin/index.html') {
        if (!reading) throw new HttpError(405, 'method not allowed', { allow: 'GET', ...ADMIN_HEADERS });
        const page = await readFile(join(appDir, 'index.html'), 'utf8').catch(() => null);
        if (page === null) throw new HttpError(503, 'the admin app is not built: run `npm run build`', ADMIN_HEADERS);
        return (html(res, 200, page), true);
      }
      if (path === '/admin/consents.csv') {
        if (!reading) throw new HttpError(405, 'method not allowed', { allow: 'GET', ...ADMIN_HEADERS });
        return (await exportCsv(req, res, url.searchParams), true);
      }
      const read = Object.hasOwn(READS, path) ? READS[path] : undefined;
      const write = Object.hasOwn(WRITES, path) ? WRITES[path] : undefined;
      if (reading && read) return (json(res, await read(url.searchParams, req)), true);
      if (method === 'POST' && write) return (json(res, await write(await form(req))), true);
      if (read || write)
        throw new HttpError(405, 'method not allowed', {
          allow: [read && 'GET', write && 'POST'].filter(Boolean).join(', '),
          ...ADMIN_HEADERS,
        });
      throw new HttpError(404, 'not found', ADMIN_HEADERS);
    },
  };
}

export type Admin = ReturnType<typeof createAdmin>;
