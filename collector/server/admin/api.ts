import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  FILTERS,
  type AdminSettings,
  type ApiTokens,
  type NewApiToken,
  type ConsentLog,
  type Erased,
  type FilterName,
  type Filters,
  type Online,
  type RetentionDays,
  type SavedSettings,
  type Traffic,
} from '../../shared/admin-api';
import { startOfDay, validTimeZone } from '../calendar';
import { originOf, siteOrigins } from '../edge/client';
import { HttpError } from '../edge/http';
import type { ConsentEntry, ConsentFilter, Store, VisitFilter } from '../store';
import { CSV_HEADER, csvLine } from './csv';
import { createDashboard } from './dashboard';
import { newToken, tokenHash } from './auth';
import { trafficCsv } from './tables-csv';
import { parseDay, periodOf, type Period } from './period';
import { MAX_RETENTION_DAYS, RETENTION, retentionDays } from './retention';

/**
 * The admin app's JSON API (`/admin/api/*`, shapes in collector/shared/admin-api.ts) and the
 * consent CSV, for a signed-in admin (index.ts checks the session and the Origin first).
 */

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

/** At most this many filters per read, each value at most this long (a stored page address is at most 2,048). */
const MAX_FILTERS = 10;
const MAX_FILTER_VALUE = 2048;

/**
 * The filters of a read: `filter=<name>:<value>`, repeatable (all must match); the value is what
 * a breakdown's row shows (its label). Throws 400 for an unknown name or an empty value.
 */
export function filtersOf(params: URLSearchParams, headers?: Record<string, string>): Filters {
  const given = params.getAll('filter');
  if (given.length > MAX_FILTERS) throw new HttpError(400, `at most ${MAX_FILTERS} filters`, headers, 'filter_count');
  const filters: Filters = [];
  for (const text of given) {
    const colon = text.indexOf(':');
    const name = text.slice(0, colon);
    const value = text.slice(colon + 1);
    if (colon < 1 || !Object.hasOwn(FILTERS, name))
      throw new HttpError(
        400,
        `filter must be <name>:<value>, name one of ${Object.keys(FILTERS).join(', ')}`,
        headers,
        'filter_format',
      );
    if (value === '' || value.length > MAX_FILTER_VALUE)
      throw new HttpError(400, `a filter's value must be 1 to ${MAX_FILTER_VALUE} characters`, headers, 'filter_value');
    if (!filters.some((f) => f.name === name && f.value === value)) filters.push({ name: name as FilterName, value });
  }
  return filters;
}

/** The store's filter of the API's. */
export const storeFilter = (filters: Filters): VisitFilter => filters.map((f) => [f.name, f.value] as const);

/** Stats API requests per token and minute (per process), and the tokens' names. */
export const STATS_PER_MINUTE = 60;
/** A token's name: 1 to 100 characters, none of them a control character. */
const validName = (name: string) => name.length >= 1 && name.length <= 100 && ![...name].some((c) => c < ' ' || c === '\u007f');

/** The pseudonym of a stored session: its first 12 hex characters. */
const pseudonymOf = (session: string) => session.slice(0, 12);

/** The page's address with `#pagepulse-heatmap`, which makes the bundle draw its stored clicks. */
function heatmapLink(page: string): string {
  const url = new URL(page);
  url.hash = 'pagepulse-heatmap';
  return url.href;
}

/** What the API needs. */
export interface ApiDeps {
  store: Store;
  now: () => number;
  trustProxy: boolean;
  /** The site's other origins (PAGEPULSE_SITES): their pages get a heatmap link. */
  sites: readonly string[];
  /** How long a session counts as online after its last heartbeat. */
  presenceWindowMs: number;
  timeZone: () => Promise<string>;
  applyRetention: (wait: boolean) => Promise<Record<string, number> | null>;
  onTimeZone: (zone: string) => Promise<void> | void;
  /** Sent with every error answer (the admin area's headers). */
  headers: Record<string, string>;
}

/** The API's reads and writes by path, and the CSV export. */
export function createApi({
  store,
  now,
  trustProxy,
  sites,
  presenceWindowMs,
  timeZone,
  applyRetention,
  onTimeZone,
  headers: ADMIN_HEADERS,
}: ApiDeps) {
  const dashboard = createDashboard(store.visits, store.clicks, store.consents);
  const listed = new Set(sites.map(originOf).filter((o): o is string => o !== null));
  /** The period a read asks for, in the site's time zone. */
  const period = async (params: URLSearchParams) => periodOf(params, now(), await timeZone(), ADMIN_HEADERS);
  /** What the app shows of the period: its name, zone, unit and days. */
  const described = (p: Period) => ({ name: p.name, timeZone: p.timeZone, unit: p.unit, days: p.days });
  const settingsNow = async (): Promise<AdminSettings> => ({
    timeZone: await timeZone(),
    ...(await retentionDays(store.settings)),
  });

  /**
   * The consent log's filter: the period's range when `period` is given (the app's picker), else
   * `from`/`to` as days in the site's time zone (either may be left out); and a pseudonym
   * (`visitor`) or a consent ID (`consent`).
   */
  async function consentFilter(params: URLSearchParams): Promise<ConsentFilter> {
    const visitor = params.get('visitor')?.trim().toLowerCase() || null;
    if (visitor !== null && !PSEUDONYM.test(visitor))
      throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS, 'visitor_pseudonym');
    const consentId = params.get('consent')?.trim() || null;
    if (consentId !== null && !CONSENT_ID.test(consentId))
      throw new HttpError(400, 'consent must be a consent ID', ADMIN_HEADERS, 'consent_id');
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
    const zone = await timeZone();
    await write(CSV_HEADER);
    for await (const page of store.consents.log(filter)) {
      if (res.destroyed) return;
      await write(page.map((row) => csvLine(row, pseudonymOf(row.session), zone)).join(''));
    }
    res.end();
  }

  /** The overview's figures for the period and filters of `params`. */
  async function traffic(params: URLSearchParams): Promise<Traffic> {
    const p = await period(params);
    const filters = filtersOf(params, ADMIN_HEADERS);
    return { period: described(p), filters, ...(await dashboard.traffic(p, storeFilter(filters))) };
  }

  /** One table of the overview as CSV (tables-csv.ts), for the period and filters of `params`. */
  async function exportTable(req: IncomingMessage, res: ServerResponse, params: URLSearchParams): Promise<void> {
    const table = params.get('table') ?? '';
    const data = await traffic(params);
    const body = trafficCsv(data, table, ADMIN_HEADERS);
    const [from, to] = data.period.days.current;
    res.writeHead(200, {
      ...ADMIN_HEADERS,
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="pagepulse-${table}-${from}_${to}${data.filters.length ? '-filtered' : ''}.csv"`,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** Requests per token in the current minute (this process). */
  const used = new Map<number, { minute: number; n: number }>();

  /**
   * `GET /api/v1/stats` with `Authorization: Bearer <token>`: the overview's figures for `period`
   * (and `from`/`to`) and `filter`, as `/admin/api/traffic` answers them. 401 without a live token,
   * 429 past STATS_PER_MINUTE requests a minute.
   */
  async function stats(req: IncomingMessage, res: ServerResponse, params: URLSearchParams): Promise<void> {
    const challenge = { ...ADMIN_HEADERS, 'www-authenticate': 'Bearer realm="pagepulse"' };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new HttpError(405, 'method not allowed', { allow: 'GET', ...ADMIN_HEADERS }, 'method_not_allowed');
    const token = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(req.headers.authorization ?? '')?.[1];
    const id = token === undefined ? null : await store.admin.useToken(tokenHash(token), now());
    if (id === null)
      throw new HttpError(401, 'a valid token is required: Authorization: Bearer <token>', challenge, 'token_required');
    const minute = Math.floor(now() / 60_000);
    const count = used.get(id);
    const n = count?.minute === minute ? count.n + 1 : 1;
    used.set(id, { minute, n });
    if (n > STATS_PER_MINUTE)
      throw new HttpError(
        429,
        `at most ${STATS_PER_MINUTE} requests a minute per token`,
        { ...ADMIN_HEADERS, 'retry-after': String(60 - Math.floor((now() / 1000) % 60)) },
        'token_rate_limit',
      );
    const body = JSON.stringify(await traffic(params));
    res.writeHead(200, { ...ADMIN_HEADERS, 'content-type': 'application/json; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** JSON reads of the signed-in app, by path. */
  const READS: Record<string, (params: URLSearchParams, req: IncomingMessage) => Promise<unknown>> = {
    '/admin/api/online': async (): Promise<Online> => ({
      ...(await store.visits.online(now() - presenceWindowMs)),
      at: new Date(now()).toISOString(),
    }),
    '/admin/api/traffic': (params) => traffic(params),
    '/admin/api/clicks': async (params, req) => {
      const p = await period(params);
      const ofSite = siteOrigins(req, trustProxy, listed);
      // a link only for pages of the site: a stored address is a visitor's word
      const href = (page: string) => {
        const origin = originOf(page);
        return origin !== null && ofSite(origin) ? heatmapLink(page) : null;
      };
      const filters = filtersOf(params, ADMIN_HEADERS);
      return {
        period: described(p),
        filters,
        pages: await dashboard.clicks(p, CLICKS_PER_PAGE, CLICK_PAGES, href, storeFilter(filters)),
      };
    },
    '/admin/api/consent-stats': async (params) => {
      const p = await period(params);
      return { period: described(p), ...(await dashboard.consentStats(p)) };
    },
    '/admin/api/consents': async (params): Promise<ConsentLog> => {
      const limitText = params.get('limit')?.trim();
      const limit = limitText ? Number(limitText) : DEFAULT_LOG_ROWS;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_ROWS)
        throw new HttpError(400, `limit must be 1 to ${MAX_LOG_ROWS}`, ADMIN_HEADERS, 'log_limit');
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
    '/admin/api/tokens': async (): Promise<ApiTokens> => ({
      tokens: (await store.admin.tokens()).map((t) => ({
        id: t.id,
        name: t.name,
        prefix: t.prefix,
        createdAt: new Date(t.createdAt).toISOString(),
        lastUsedAt: t.lastUsedAt === null ? null : new Date(t.lastUsedAt).toISOString(),
        revokedAt: t.revokedAt === null ? null : new Date(t.revokedAt).toISOString(),
      })),
    }),
  };

  /** State-changing calls of the signed-in app (form-encoded POST), by path. */
  const WRITES: Record<string, (params: URLSearchParams) => Promise<unknown>> = {
    /** A new stats API token: answered once, stored as its SHA-256 only. */
    '/admin/api/tokens': async (params): Promise<NewApiToken> => {
      const name = params.get('name')?.trim() ?? '';
      if (!validName(name)) throw new HttpError(400, 'name must be 1 to 100 characters', ADMIN_HEADERS, 'token_name');
      const token = `pp_${newToken()}`;
      const prefix = token.slice(0, 10);
      const id = await store.admin.addToken(name, tokenHash(token), prefix, now());
      return { id, name, prefix, token };
    },
    '/admin/api/tokens/revoke': async (params): Promise<{ revoked: boolean }> => {
      const id = Number(params.get('id'));
      if (!Number.isSafeInteger(id) || id < 1) throw new HttpError(400, 'id must be a token id', ADMIN_HEADERS, 'token_id');
      return { revoked: await store.admin.revokeToken(id, now()) };
    },
    '/admin/api/erase': async (params): Promise<Erased> => {
      const consent = params.get('consent')?.trim();
      if (consent) {
        if (!CONSENT_ID.test(consent)) throw new HttpError(400, 'consent must be a consent ID', ADMIN_HEADERS, 'consent_id');
        return store.erase({ consentId: consent });
      }
      const visitor = params.get('visitor')?.trim().toLowerCase() ?? '';
      if (!PSEUDONYM.test(visitor))
        throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS, 'visitor_pseudonym');
      return store.erase({ pseudonym: visitor });
    },
    '/admin/api/settings': async (params): Promise<SavedSettings> => {
      // each field optional; a given one must be 1 to MAX_RETENTION_DAYS (nothing is kept forever)
      const given = (Object.keys(RETENTION) as Array<keyof RetentionDays>).filter((name) => params.has(name));
      const zoneText = params.get('timeZone')?.trim();
      const zone = zoneText === undefined ? null : validTimeZone(zoneText);
      if (zoneText !== undefined && zone === null)
        throw new HttpError(400, 'timeZone must be an IANA time zone such as Europe/Berlin', ADMIN_HEADERS, 'time_zone');
      if (given.length === 0 && zone === null)
        throw new HttpError(
          400,
          `name a setting: timeZone or ${Object.keys(RETENTION).join(', ')}`,
          ADMIN_HEADERS,
          'setting_missing',
        );
      const values = given.map((name) => {
        const text = params.get(name)!.trim();
        const days = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
        if (!(days >= 1 && days <= MAX_RETENTION_DAYS))
          throw new HttpError(400, `${name} must be 1 to ${MAX_RETENTION_DAYS}`, ADMIN_HEADERS, 'retention_range');
        return [RETENTION[name].key, String(days)] as const;
      });
      const before = await timeZone();
      await store.settings.setAll([...values, ...(zone === null ? [] : [['time_zone', zone] as const])]);
      if (zone !== null && zone !== before) await onTimeZone(zone);
      return { ...(await settingsNow()), deleted: (await applyRetention(true)) ?? {} };
    },
  };

  return { READS, WRITES, exportCsv, exportTable, stats };
}
