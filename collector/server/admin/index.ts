import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { serverTimeZone } from '../calendar';
import { sameOrigin } from '../edge/client';
import { HttpError, isFormEncoded, parseForm, readBody, send, sendJson } from '../edge/http';
import { serveStatic, type Mount } from '../edge/static';
import type { Store } from '../store';
import { createApi } from './api';
import { createLogin } from './login';
import { FAVICON_SVG, LOGIN_CSS, loginLang, loginPage, type LoginNotice } from './login-page';
import { retentionDays, retentionPlan } from './retention';

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

/** The read-only stats API (docs/collector.md "Stats API"). */
export const STATS_PATH = '/api/v1/stats';
/** The overview's live count, which the app polls while it is open (admin/api.ts READS). */
const ONLINE_PATH = '/admin/api/online';

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
  /** The site's time zone changed: the day totals go (before the save is answered) and are counted again. */
  onTimeZone: (zone: string) => Promise<void> | void;
  /** Sign-ins of every client together per process before the database; PROCESS_GATE when absent. */
  signInGate?: { burst: number; perSecond: number };
}

/** The admin area on the store. */
export function createAdmin({ store, now, root, trustProxy, presenceWindowMs, sites, onTimeZone, signInGate }: AdminDeps) {
  const login = createLogin(store.admin, store.settings, trustProxy, signInGate);
  const appDir = join(root, 'dist', 'admin');
  const assets: Mount[] = [{ prefix: '/admin/assets/', dir: join(appDir, 'assets') }];

  /** The site's time zone (`time_zone`; default the server's): the admin area's days, hours and months. */
  const timeZone = async (): Promise<string> => (await store.settings.get('time_zone')) ?? serverTimeZone();
  /** The retention run now; null when another process (PostgreSQL) is running it and `wait` is false. */
  const applyRetention = async (wait: boolean) =>
    store.retain(retentionPlan(await retentionDays(store.settings), now(), presenceWindowMs), wait);
  const { READS, WRITES, exportCsv, exportTable, stats } = createApi({
    store,
    now,
    presenceWindowMs,
    trustProxy,
    sites,
    timeZone,
    applyRetention,
    onTimeZone,
    headers: ADMIN_HEADERS,
  });

  const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void =>
    send(res, status, 'text/html; charset=utf-8', body, { ...ADMIN_HEADERS, ...headers });
  const redirect = (res: ServerResponse, location: string, headers: OutgoingHttpHeaders = {}): void =>
    void res.writeHead(303, { ...ADMIN_HEADERS, location, ...headers }).end();
  const json = (res: ServerResponse, body: unknown, status = 200): void => sendJson(res, status, body, ADMIN_HEADERS);

  async function form(req: IncomingMessage): Promise<URLSearchParams> {
    const body = await readBody(req);
    if (body !== '' && !isFormEncoded(req))
      throw new HttpError(415, 'expected application/x-www-form-urlencoded', ADMIN_HEADERS, 'form_type');
    return parseForm(body);
  }

  return {
    /** Every path the admin area answers (the privacy test walks them all). */
    paths: [
      '/admin',
      '/admin/',
      '/admin/index.html',
      '/admin/login',
      '/admin/login.css',
      '/admin/favicon.svg',
      '/admin/logout',
      '/admin/consents.csv',
      '/admin/traffic.csv',
      STATS_PATH,
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
      // the read-only stats API: a token, not a session (no cookie, no Origin check: scripts call it)
      if (path === STATS_PATH) return (await stats(req, res, url.searchParams), true);
      if (path !== '/admin' && !path.startsWith('/admin/')) return false;
      const method = req.method ?? 'GET';
      const reading = method === 'GET' || method === 'HEAD';

      // public: the sign-in page, its styles, and the app's code (no data in either)
      if (path === '/admin') return (redirect(res, '/admin/'), true);
      if (path === '/admin/login.css' && reading)
        return (send(res, 200, 'text/css; charset=utf-8', LOGIN_CSS, ADMIN_HEADERS), true);
      if (path === '/admin/favicon.svg' && reading) return (send(res, 200, 'image/svg+xml', FAVICON_SVG, ADMIN_HEADERS), true);
      if (path.startsWith('/admin/assets/') && reading) return (await serveStatic(req, res, path, '', assets), true);
      if (path === '/admin/login') {
        if (method === 'POST') {
          const result = await login.signIn(req, async () => (await form(req)).get('password') ?? '', now);
          if (result.ok) return (redirect(res, '/admin/', { 'set-cookie': result.cookies }), true);
          const retry: Record<string, string> = result.retryAfter ? { 'retry-after': String(result.retryAfter) } : {};
          return (html(res, result.status, loginPage(result.notice, loginLang(req.headers['accept-language'])), retry), true);
        }
        if (!reading)
          throw new HttpError(405, 'method not allowed', { allow: 'GET, POST', ...ADMIN_HEADERS }, 'method_not_allowed');
        const notice: LoginNotice = url.searchParams.get('signed-out') === '1' ? 'signed-out' : null;
        return (html(res, 200, loginPage(notice, loginLang(req.headers['accept-language']))), true);
      }
      if (path === '/admin/logout') {
        if (method !== 'POST')
          throw new HttpError(405, 'method not allowed', { allow: 'POST', ...ADMIN_HEADERS }, 'method_not_allowed');
        if (!sameOrigin(req, trustProxy)) throw new HttpError(403, 'cross-origin request refused', ADMIN_HEADERS, 'cross_origin');
        return (redirect(res, '/admin/login?signed-out=1', { 'set-cookie': await login.signOut(req) }), true);
      }

      // everything else needs a live session; the overview's poll of the live count (every 5 s while
      // it is open) is no activity of the admin's: it does not keep the session from its idle end
      if (!(await login.signedIn(req, now(), path !== ONLINE_PATH))) {
        if (reading && (path === '/admin/' || path === '/admin/index.html')) return (redirect(res, '/admin/login'), true);
        throw new HttpError(401, 'sign in first', ADMIN_HEADERS, 'signed_out');
      }
      if (!reading && !sameOrigin(req, trustProxy))
        throw new HttpError(403, 'cross-origin request refused', ADMIN_HEADERS, 'cross_origin');

      if (path === '/admin/' || path === '/admin/index.html') {
        if (!reading) throw new HttpError(405, 'method not allowed', { allow: 'GET', ...ADMIN_HEADERS }, 'method_not_allowed');
        const page = await readFile(join(appDir, 'index.html'), 'utf8').catch(() => null);
        if (page === null)
          throw new HttpError(503, 'the admin app is not built: run `npm run build`', ADMIN_HEADERS, 'app_not_built');
        return (html(res, 200, page), true);
      }
      if (path === '/admin/consents.csv') {
        if (!reading) throw new HttpError(405, 'method not allowed', { allow: 'GET', ...ADMIN_HEADERS }, 'method_not_allowed');
        return (await exportCsv(req, res, url.searchParams), true);
      }
      if (path === '/admin/traffic.csv') {
        if (!reading) throw new HttpError(405, 'method not allowed', { allow: 'GET', ...ADMIN_HEADERS }, 'method_not_allowed');
        return (await exportTable(req, res, url.searchParams), true);
      }
      const read = Object.hasOwn(READS, path) ? READS[path] : undefined;
      const write = Object.hasOwn(WRITES, path) ? WRITES[path] : undefined;
      if (reading && read) return (json(res, await read(url.searchParams, req)), true);
      if (method === 'POST' && write) return (json(res, await write(await form(req))), true);
      if (read || write)
        throw new HttpError(
          405,
          'method not allowed',
          { allow: [read && 'GET', write && 'POST'].filter(Boolean).join(', '), ...ADMIN_HEADERS },
          'method_not_allowed',
        );
      throw new HttpError(404, 'not found', ADMIN_HEADERS, 'not_found');
    },
  };
}

export type Admin = ReturnType<typeof createAdmin>;
