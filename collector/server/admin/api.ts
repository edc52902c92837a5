import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  AdminSettings,
  ApiTokens,
  NewApiToken,
  ConsentLog,
  Erased,
  Online,
  RetentionDays,
  SavedSettings,
  Traffic,
} from '../../shared/admin-api';
import { validTimeZone } from '../calendar';
import { originOf, siteOrigins } from '../edge/client';
import { HttpError } from '../edge/http';
import type { Store } from '../store';
import { CONSENT_ID, consentLog, PSEUDONYM } from './consent-log';
import { createDashboard } from './dashboard';
import { newToken, tokenHash } from './auth';
import { filtersOf, storeFilter } from './filters';
import { trafficCsv } from './tables-csv';
import { periodOf, type Period } from './period';
import { MAX_RETENTION_DAYS, RETENTION, retentionDays } from './retention';
import { statsApi } from './stats-api';

/**
 * The admin app's JSON API (`/admin/api/*`, shapes in collector/shared/admin-api.ts) and the
 * consent CSV, for a signed-in admin (index.ts checks the session and the Origin first). The reads'
 * filters are filters.ts's, the consent log's filter, entries and CSV consent-log.ts's, the stats
 * API's token check and limit stats-api.ts's.
 */

/** Rows of the clicks lists: a dashboard, not a report. */
const CLICK_PAGES = 20;
const CLICKS_PER_PAGE = 10;
/** Consent log rows per JSON answer (the CSV has them all). */
const DEFAULT_LOG_ROWS = 200;
const MAX_LOG_ROWS = 2000;

/** A token's name: 1 to 100 characters, none of them a control character. */
const validName = (name: string) => name.length >= 1 && name.length <= 100 && ![...name].some((c) => c < ' ' || c === '\u007f');

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

  const { consentFilter, logEntry, exportCsv } = consentLog({ store, now, timeZone, period, headers: ADMIN_HEADERS });

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

  const stats = statsApi({ store, now, headers: ADMIN_HEADERS, traffic });

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
      if (!validName(name)) throw new HttpError(400, 'name must be 1 to 100 characters', ADMIN_HEADERS, 'token_name', 'name');
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
    // a wrong value names the form field it came in (`visitor` or `consent`), so the app marks its input
    '/admin/api/erase': async (params): Promise<Erased> => {
      const consent = params.get('consent')?.trim();
      if (consent) {
        if (!CONSENT_ID.test(consent))
          throw new HttpError(400, 'consent must be a consent ID', ADMIN_HEADERS, 'consent_id', 'consent');
        return store.erase({ consentId: consent });
      }
      const visitor = params.get('visitor')?.trim().toLowerCase() ?? '';
      if (!PSEUDONYM.test(visitor))
        throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS, 'visitor_pseudonym', 'visitor');
      return store.erase({ pseudonym: visitor });
    },
    '/admin/api/settings': async (params): Promise<SavedSettings> => {
      // each field optional; a given one must be 1 to MAX_RETENTION_DAYS (nothing is kept forever); the
      // first wrong one in the form's order is named (its `field`), nothing is saved
      const given = (Object.keys(RETENTION) as Array<keyof RetentionDays>).filter((name) => params.has(name));
      const zoneText = params.get('timeZone')?.trim();
      const zone = zoneText === undefined ? null : validTimeZone(zoneText);
      if (zoneText !== undefined && zone === null)
        throw new HttpError(
          400,
          'timeZone must be an IANA time zone such as Europe/Berlin',
          ADMIN_HEADERS,
          'time_zone',
          'timeZone',
        );
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
          throw new HttpError(400, `${name} must be 1 to ${MAX_RETENTION_DAYS}`, ADMIN_HEADERS, 'retention_range', name);
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
