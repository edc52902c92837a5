import type { IncomingMessage, ServerResponse } from 'node:http';
import { limitKey, storedAddress } from '../edge/address';
import type { CountryLookup } from '../edge/country';
import { allowedOrigin, clientAddress, isHttps, originOf, siteOrigins } from '../edge/client';
import { HttpError, isFormEncoded, parseForm, readBody, send, sendJson } from '../edge/http';
import { createTokenBuckets } from '../edge/rate-limit';
import type { ClicksStore, ConsentsStore, VisitsStore } from '../store';
import { createClickReads, CLICKS_READ_RATE } from './clicks';
import type { Settings } from './config';
import { sessionOf } from './session';
import { TASK_KEYS, findTask, type Reply, type TaskContext } from './tasks';

/**
 * The visitor feature: the Joomla components' tasks on `/index.php` (what the bundle calls from
 * every visitor's browser) and the public click list for the QA heatmap overlay. A visitor is a
 * session cookie. Writes are limited per client (the stored prefix of its address), must come from
 * the site's own pages (Origin, and the page addresses they name), and never reach the admin area.
 */

export { describeAgent } from './agent';
export { bookmarklet } from './bookmarklet';
export { DEFAULT_SETTINGS, presenceWindowMs, type Settings } from './config';
export { pageAddress } from './page';
export { sourceOf } from './sources';

/** What the visitor feature needs from the collector. */
export interface VisitorDeps {
  visits: VisitsStore;
  clicks: ClicksStore;
  consents: ConsentsStore;
  settings: Settings;
  now: () => number;
  trustProxy: boolean;
  /** PAGEPULSE_FULL_IP: store addresses whole. */
  fullIp: boolean;
  /** The country of a full client address (edge/country.ts), before it is shortened. */
  country: CountryLookup;
  visitorRate: { burst: number; perSecond: number };
  /** The site's origins (PAGEPULSE_SITES); none: the one each request came to (edge/client.ts siteOrigins). */
  sites: readonly string[];
  /** The start of the site's today (its time zone), for a clock reading. */
  todayStart: (now: number) => Promise<number>;
}

/**
 * CORS for the public read endpoint only (aggregate click counts): the QA heatmap overlay may run on
 * another origin via the bookmarklet. Nothing personal is ever sent with it.
 */
const READ_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  // the bundle's request helper marks its calls as ajax, which makes a cross-origin GET preflight
  'access-control-allow-headers': 'X-Requested-With',
  'access-control-max-age': '600',
};

/** The visitor feature on its stores. */
export function createVisitorTasks(deps: VisitorDeps) {
  const writes = createTokenBuckets(deps.visitorRate.burst, deps.visitorRate.perSecond);
  const sites = new Set(deps.sites.map((site) => originOf(site)).filter((o): o is string => o !== null));
  const clickReads = createClickReads(deps.clicks);
  const reads = createTokenBuckets(CLICKS_READ_RATE.burst, CLICKS_READ_RATE.perSecond);

  /** Whether an address is a page of the site: of PAGEPULSE_SITES, or without them of the origin the request came to. */
  const siteOf = (req: IncomingMessage) => {
    const ofSite = siteOrigins(req, deps.trustProxy, sites);
    return (address: string) => {
      const origin = originOf(address);
      return origin !== null && ofSite(origin);
    };
  };

  return {
    /** The paths this feature answers (each task as `/index.php?option=..&task=..`, and `/api/clicks`). */
    routes: [
      ...TASK_KEYS.map((key) => {
        const [option, task] = key.split('/');
        return `/index.php?option=${option}${task ? `&task=${task}` : ''}`;
      }),
      '/api/clicks',
    ] as readonly string[],
    /**
     * Answer a visitor request; false when the path is not this feature's (a page of the demo site
     * or a file, which the app serves). Every such request gets the visitor's session cookie, as a
     * Joomla page does, except a write past the client's rate or from another origin.
     */
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
      const address = clientAddress(req, deps.trustProxy);
      const ours = url.pathname === '/index.php' || url.pathname === '/api/clicks';
      if (url.pathname === '/index.php' && req.method === 'POST') {
        // visitor writes past the client's rate: 429 before the body is read or anything is stored
        // (wall-clock time, not the injectable clock: a rate is requests per real second)
        const wait = writes.take(limitKey(address), Date.now());
        if (wait > 0) throw new HttpError(429, 'too many requests', { 'retry-after': String(Math.ceil(wait / 1000)) });
        if (!allowedOrigin(req, deps.trustProxy, sites)) throw new HttpError(403, 'cross-origin request refused');
      }
      const session = sessionOf(req, isHttps(req, deps.trustProxy));
      if (session.setCookie) res.setHeader('set-cookie', session.setCookie);
      if (!ours) return false;
      if (url.pathname === '/api/clicks') {
        if (req.method === 'OPTIONS') return (void res.writeHead(204, READ_CORS).end(), true);
        if (req.method !== 'GET') throw new HttpError(405, 'method not allowed', { allow: 'GET, OPTIONS', ...READ_CORS });
        const wait = reads.take(limitKey(address), Date.now());
        if (wait > 0)
          throw new HttpError(429, 'too many requests', { 'retry-after': String(Math.ceil(wait / 1000)), ...READ_CORS });
        return (reply(res, await clickReads.answer(url.searchParams.get('page'), siteOf(req), Date.now()), READ_CORS), true);
      }
      const params = await requestParams(req, url.searchParams);
      const task = findTask(params);
      if (!task) throw new HttpError(400, 'unknown task');
      if (req.method !== task.method) throw new HttpError(405, 'method not allowed', { allow: task.method });
      const now = deps.now();
      const ctx: TaskContext = {
        visits: deps.visits,
        clicks: deps.clicks,
        consents: deps.consents,
        settings: deps.settings,
        now,
        todayStart: task.method === 'POST' ? await deps.todayStart(now) : now,
        visitor: { session: session.id, userAgent: req.headers['user-agent'] ?? '', ip: storedAddress(address, deps.fullIp) },
        host: req.headers.host ?? 'localhost',
        // the full address (through the trusted proxy's X-Forwarded-For), not the stored prefix
        country: () => deps.country(address),
        params,
        ofSite: siteOf(req),
        clicked: (page) => clickReads.clicked(page),
      };
      return (reply(res, await task.run(ctx)), true);
    },
  };
}

/** Query and form body as one set of fields, the body winning (Joomla's input reads both). */
async function requestParams(req: IncomingMessage, query: URLSearchParams): Promise<URLSearchParams> {
  if (req.method !== 'POST') return query;
  const body = await readBody(req);
  if (body === '') return query;
  if (!isFormEncoded(req)) throw new HttpError(415, 'expected application/x-www-form-urlencoded');
  const params = parseForm(body);
  for (const [key, value] of query) if (!params.has(key)) params.append(key, value);
  return params;
}

function reply(res: ServerResponse, answer: Reply, headers: Record<string, string> = {}): void {
  const status = answer.status ?? 200;
  if ('html' in answer) send(res, status, 'text/html; charset=utf-8', answer.html, headers);
  else if ('jsonText' in answer) send(res, status, 'application/json; charset=utf-8', answer.jsonText, headers);
  else sendJson(res, status, answer.json, headers);
}
