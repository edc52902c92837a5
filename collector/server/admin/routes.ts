import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Store } from '../db';
import { HttpError, isFormEncoded, parseForm, readBody, send, sendJson } from '../http';
import { PRESENCE_INTERVALS, PRESENCE_MIN_MS } from '../routes';
import type { Settings } from '../settings';
import { serveStatic, type Mount } from '../static';
import {
  DEVICE_COOKIE,
  adminToken,
  clientAddress,
  createAdminAuth,
  createHashGate,
  createStoredLimiter,
  deviceCookie,
  isHttps,
  sameOrigin,
  sessionCookie,
} from './auth';
import { consentsCsv } from './csv';
import { LOGIN_CSS, loginPage, type LoginNotice } from './login-page';
import { createDashboard } from './dashboard';
import { parseDay, periodOf, serverTimeZone, startOfDay, validTimeZone } from './period';
import { DAY_MS, createAdminQueries, type ConsentFilter } from './queries';

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
/** Consent log rows per JSON answer (the CSV has them all, up to MAX_EXPORT_ROWS). */
const DEFAULT_LOG_ROWS = 200;
const MAX_LOG_ROWS = 2000;
const MAX_EXPORT_ROWS = 1_000_000;
/**
 * What is kept how long by default, in days (0 = kept): clicks 400 days (a year of heatmaps and a
 * season to compare with); cookie-consent records 3 years (the proof of consent: the limitation
 * period for claims under German civil law runs three years from the end of the year).
 */
const KEPT = { click_retention_days: 400, consent_retention_days: 3 * 365 } as const;
/** Longest retention accepted: ten years. 0 turns automatic deletion off. */
const MAX_RETENTION_DAYS = 3650;
/** How often the retention rule runs while the collector is up. */
const RETENTION_EVERY_MS = 60 * 60 * 1000;
/** A pseudonym is the first 12 hex characters of the session's SHA-256 (session.ts visitorId). */
const PSEUDONYM = /^[0-9a-f]{12}$/;

/** What the admin area needs from the collector. */
export interface AdminDeps {
  store: Store;
  settings: Settings;
  now: () => number;
  /** Repository root: the built admin app is in `dist/admin/`. */
  root: string;
  /** Trust X-Forwarded-For/-Proto/-Host (only behind a reverse proxy that sets them). */
  trustProxy: boolean;
  /** Where a failed background run (retention) is reported. */
  onError: (error: unknown) => void;
}

/** The admin area: sign-in, the built React app and its JSON API, the CSV export. */
export function createAdmin({ store, settings, now, root, trustProxy, onError }: AdminDeps) {
  const auth = createAdminAuth(store.sql);
  const queries = createAdminQueries(store.sql);
  const dashboard = createDashboard(store.sql);
  const limiter = createStoredLimiter(store.sql);
  const hashGate = createHashGate();
  const appDir = join(root, 'dist', 'admin');
  const assets: Mount[] = [{ prefix: '/admin/assets/', dir: join(appDir, 'assets') }];
  let retentionTimer: NodeJS.Timeout | null = null;
  /** The retention run in progress, if any: stop() waits for it before the database closes. */
  let retentionRun: Promise<void> = Promise.resolve();

  const retentionDays = async (): Promise<number> => Number((await auth.setting('retention_days')) ?? 0);
  const keptDays = async (key: keyof typeof KEPT): Promise<number> => Number((await auth.setting(key)) ?? KEPT[key]);
  /** The retention rule; null when another process (PostgreSQL) is running it and `wait` is false. */
  const applyRetention = async (wait: boolean) => {
    const { retentionDays: days, clickRetentionDays: clickDays, consentRetentionDays: consentDays } = await settingsNow();
    const at = now();
    const before = (kept: number) => (kept > 0 ? at - kept * DAY_MS : null);
    return queries.retain(before(days), before(clickDays), before(consentDays), wait);
  };
  /** The site's time zone (`time_zone`; default the server's): the admin area's days, hours and months. */
  const timeZone = async (): Promise<string> => (await auth.setting('time_zone')) ?? serverTimeZone();
  /** The period a read asks for, in the site's time zone. */
  const period = async (params: URLSearchParams) => periodOf(params, now(), await timeZone(), ADMIN_HEADERS);
  /** What the app shows of the period: its name, zone, unit and days (the ranges as times). */
  const described = (p: Awaited<ReturnType<typeof period>>) => ({
    name: p.name,
    timeZone: p.timeZone,
    unit: p.unit,
    days: p.days,
  });
  const settingsNow = async () => ({
    timeZone: await timeZone(),
    retentionDays: await retentionDays(),
    clickRetentionDays: await keptDays('click_retention_days'),
    consentRetentionDays: await keptDays('consent_retention_days'),
  });

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
   * Sign-in: a limiter slot is taken before anything else (so parallel guesses count), for the
   * browser's device token when it signed in before, else for the client address; the password is
   * hashed through the gate (two at a time); a right password gives its slot back.
   */
  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const device = adminToken(req, DEVICE_COOKIE);
    const known = await auth.knownDevice(device, now());
    const key = known ? `device ${device}` : `address ${clientAddress(req, trustProxy)}`;
    const limited = (wait: number) => html(res, 429, loginPage('limited'), { 'retry-after': String(Math.ceil(wait / 1000)) });
    const wait = await limiter.take(key, now());
    if (wait > 0) return limited(wait);
    if (!sameOrigin(req, trustProxy)) {
      await limiter.succeed(key, now()); // not a guess
      return html(res, 403, loginPage('origin'));
    }
    const password = (await form(req)).get('password') ?? '';
    const right = await hashGate(() => auth.check(password));
    if (right === null) {
      await limiter.succeed(key, now()); // not checked: the gate was full
      return limited(1000);
    }
    if (!right) return html(res, 401, loginPage('wrong'));
    await limiter.succeed(key, now());
    const secure = isHttps(req, trustProxy);
    const cookies = [sessionCookie(await auth.open(now()), secure)];
    if (!known) cookies.push(deviceCookie(await auth.addDevice(now()), secure));
    redirect(res, '/admin/', { 'set-cookie': cookies });
  }

  /**
   * The consent log's filter: the period's range when `period` is given (the app's picker), else
   * `from`/`to` as days in the site's time zone (either may be left out), and a pseudonym.
   */
  async function consentFilter(params: URLSearchParams, maxRows: number, defaultRows: number): Promise<ConsentFilter> {
    const visitor = params.get('visitor')?.trim().toLowerCase() || null;
    if (visitor !== null && !PSEUDONYM.test(visitor))
      throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS);
    const limitText = params.get('limit')?.trim();
    const limit = limitText ? Number(limitText) : defaultRows;
    if (!Number.isInteger(limit) || limit < 1 || limit > maxRows)
      throw new HttpError(400, `limit must be 1 to ${maxRows}`, ADMIN_HEADERS);
    if (params.get('period')) {
      const { start, end } = (await period(params)).current;
      return { from: start, to: end, visitor, limit };
    }
    const zone = await timeZone();
    const day = (name: string, after: number): number | null => {
      const value = params.get(name)?.trim();
      if (!value) return null;
      const { y, m, d } = parseDay(value, name, ADMIN_HEADERS);
      return startOfDay(zone, { y, m, d: d + after });
    };
    return { from: day('from', 0) ?? 0, to: day('to', 1) ?? Number.MAX_SAFE_INTEGER, visitor, limit };
  }

  /** JSON reads of the signed-in app, by path. */
  const READS: Record<string, (params: URLSearchParams) => Promise<unknown>> = {
    '/admin/api/online': async () => {
      const windowMs = Math.max(PRESENCE_INTERVALS * settings.daemonrefresh * 1000, PRESENCE_MIN_MS);
      return { ...(await queries.online(now() - windowMs)), at: new Date(now()).toISOString() };
    },
    '/admin/api/traffic': async (params) => {
      const p = await period(params);
      return { period: described(p), ...(await dashboard.traffic(p)) };
    },
    '/admin/api/clicks': async (params) => {
      const p = await period(params);
      return { period: described(p), pages: await dashboard.clicks(p, CLICKS_PER_PAGE, CLICK_PAGES) };
    },
    '/admin/api/consent-stats': async (params) => {
      const p = await period(params);
      return { period: described(p), ...(await queries.consentStats(p)) };
    },
    '/admin/api/consents': async (params) => ({
      // the app shows each time on the site's clock, and the period's days
      timeZone: await timeZone(),
      ...(params.get('period') ? { period: described(await period(params)) } : {}),
      consents: (await queries.consents(await consentFilter(params, MAX_LOG_ROWS, DEFAULT_LOG_ROWS))).map((row) => ({
        ...row,
        at: new Date(row.at).toISOString(),
        deletedAt: row.deletedAt === null ? null : new Date(row.deletedAt).toISOString(),
      })),
    }),
    '/admin/api/settings': () => settingsNow(),
  };

  /** State-changing calls of the signed-in app (form-encoded POST), by path. */
  const WRITES: Record<string, (params: URLSearchParams) => Promise<unknown>> = {
    '/admin/api/erase': async (params) => {
      const visitor = params.get('visitor')?.trim().toLowerCase() ?? '';
      if (!PSEUDONYM.test(visitor)) throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS);
      return queries.erase(visitor);
    },
    '/admin/api/settings': async (params) => {
      // each field optional; a given one must be 0 (keep) to MAX_RETENTION_DAYS
      const fields = [
        ['retentionDays', 'retention_days'],
        ['clickRetentionDays', 'click_retention_days'],
        ['consentRetentionDays', 'consent_retention_days'],
      ] as const;
      const given = fields.filter(([name]) => params.has(name));
      const zoneText = params.get('timeZone')?.trim();
      const zone = zoneText === undefined ? null : validTimeZone(zoneText);
      if (zoneText !== undefined && zone === null)
        throw new HttpError(400, 'timeZone must be an IANA time zone such as Europe/Berlin', ADMIN_HEADERS);
      if (given.length === 0 && zone === null)
        throw new HttpError(400, 'retentionDays must be 0 to ' + MAX_RETENTION_DAYS, ADMIN_HEADERS);
      const values = given.map(([name, key]) => {
        const text = params.get(name)!.trim();
        const days = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
        if (!(days >= 0 && days <= MAX_RETENTION_DAYS))
          throw new HttpError(400, `${name} must be 0 to ${MAX_RETENTION_DAYS}`, ADMIN_HEADERS);
        return [key, days] as const;
      });
      for (const [key, days] of values) await auth.setSetting(key, String(days));
      if (zone !== null) await auth.setSetting('time_zone', zone);
      return { ...(await settingsNow()), deleted: await applyRetention(true) };
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
    /** Set the password up (returns a generated one to print once) and start the retention rule. */
    async init(passwordFromEnv: string | null): Promise<{ generated: string | null }> {
      const result = await auth.init(passwordFromEnv);
      // a failing run (a locked or full database) is reported and tried again at the next one
      // (on PostgreSQL one process at a time: another's run is enough)
      const run = (): Promise<void> =>
        (retentionRun = retentionRun.then(() => applyRetention(false)).then(() => undefined, onError));
      await run();
      retentionTimer = setInterval(() => void run().catch(onError), RETENTION_EVERY_MS);
      retentionTimer.unref();
      return result;
    },
    /** Stop the retention rule (waits for a run in progress). */
    async stop(): Promise<void> {
      if (retentionTimer) clearInterval(retentionTimer);
      await retentionRun;
    },
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
        if (method === 'POST') return (await login(req, res), true);
        if (!reading) throw new HttpError(405, 'method not allowed', { allow: 'GET, POST', ...ADMIN_HEADERS });
        const notice: LoginNotice = url.searchParams.get('signed-out') === '1' ? 'signed-out' : null;
        return (html(res, 200, loginPage(notice)), true);
      }
      if (path === '/admin/logout') {
        if (method !== 'POST') throw new HttpError(405, 'method not allowed', { allow: 'POST', ...ADMIN_HEADERS });
        if (!sameOrigin(req, trustProxy)) throw new HttpError(403, 'cross-origin request refused', ADMIN_HEADERS);
        await auth.close(adminToken(req));
        return (
          redirect(res, '/admin/login?signed-out=1', { 'set-cookie': sessionCookie(null, isHttps(req, trustProxy)) }),
          true
        );
      }

      // everything else needs a live session
      if (!(await auth.valid(adminToken(req), now()))) {
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
        const rows = await queries.consents(await consentFilter(url.searchParams, MAX_EXPORT_ROWS, MAX_EXPORT_ROWS));
        send(res, 200, 'text/csv; charset=utf-8', consentsCsv(rows), {
          ...ADMIN_HEADERS,
          'content-disposition': `attachment; filename="pagepulse-consents-${new Date(now()).toISOString().slice(0, 10)}.csv"`,
        });
        return true;
      }
      const read = Object.hasOwn(READS, path) ? READS[path] : undefined;
      const write = Object.hasOwn(WRITES, path) ? WRITES[path] : undefined;
      if (reading && read) return (json(res, await read(url.searchParams)), true);
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
