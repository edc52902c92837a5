import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Traffic } from '../../shared/admin-api';
import { HttpError } from '../edge/http';
import type { Store } from '../store';
import { tokenHash } from './auth';

/** The stats API (`GET /api/v1/stats`, api.ts): the overview's figures for a bearer token, a limited number a minute. */

/** Stats API requests per token and minute (per process). */
export const STATS_PER_MINUTE = 60;

/** What the stats API needs (the API's dependencies, and its overview read). */
interface StatsApiDeps {
  store: Store;
  now: () => number;
  /** Sent with every error answer (the admin area's headers). */
  headers: Record<string, string>;
  /** The overview's figures for the period and filters of `params`. */
  traffic: (params: URLSearchParams) => Promise<Traffic>;
}

/** The stats API's handler, with its count of each token's requests. */
export function statsApi({ store, now, headers: ADMIN_HEADERS, traffic }: StatsApiDeps) {
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

  return stats;
}
