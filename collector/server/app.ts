import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdmin } from './admin/routes';
import { createStore } from './db';
import { HttpError, isFormEncoded, parseForm, readBody, send, sendJson } from './http';
import { READS, TASK_KEYS, findTask, type Reply, type RouteContext } from './routes';
import { clientAddress, isHttps } from './admin/auth';
import { storedAddress } from './client-ip';
import { VISITOR_RATE, createTokenBuckets } from './rate-limit';
import { sessionOf } from './session';
import { DEFAULT_SETTINGS, type Settings } from './settings';
import { serveStatic, type Mount } from './static';

/**
 * The repository root: the nearest folder above this file with a package.json (the sources sit in
 * `collector/server/`, the compiled server in `dist/collector/`).
 */
export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return dir;
  }
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

/** How to build a collector; everything has a default so tests pass only what they pin. */
export interface CollectorOptions {
  /** SQLite file, or `:memory:` (the default). */
  dbPath?: string;
  /** A PostgreSQL URL (PAGEPULSE_DATABASE_URL): used instead of SQLite when given. */
  databaseUrl?: string | null;
  /** Repository root: its `demo/` is served at `/`, its `dist/` at `/dist/`. */
  root?: string;
  /** Overrides of the `configparams` sent to the bundle. */
  settings?: Partial<Settings>;
  /** Milliseconds since the epoch; injectable so tests can age heartbeats. */
  now?: () => number;
  /** Where unexpected errors go (they are answered with 500 and never stop the server). */
  onError?: (error: unknown) => void;
  /** The admin password (PAGEPULSE_ADMIN_PASSWORD); without it a stored hash, or a new random password. */
  adminPassword?: string | null;
  /** Behind a reverse proxy: trust its X-Forwarded-For/-Proto/-Host (client address, https, origin check). */
  trustProxy?: boolean;
  /** PAGEPULSE_FULL_IP=1: store client addresses whole instead of shortened (client-ip.ts). */
  fullIp?: boolean;
  /** Visitor writes per client address (rate-limit.ts); the default never meets a real visitor. */
  visitorRate?: { burst: number; perSecond: number };
}

/** A running (or ready to run) collector. */
export interface Collector {
  server: Server;
  /**
   * Start listening; port 0 picks a free one. `generatedPassword` is the admin password created on
   * this first start (no PAGEPULSE_ADMIN_PASSWORD, none stored): shown once, only its hash is kept.
   */
  listen(port?: number, host?: string): Promise<{ url: string; generatedPassword: string | null }>;
  /** Stop listening, drop open connections and close the database. */
  close(): Promise<void>;
  /** Every route: each task as `/index.php?option=..&task=..`, the read and admin paths, the static mounts' prefixes. */
  routes: readonly string[];
}

/** The reference collector: the Joomla components' endpoints over SQLite or PostgreSQL, plus the demo site. */
export function createCollector(options: CollectorOptions = {}): Collector {
  const root = resolve(options.root ?? REPO_ROOT);
  const settings: Settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const now = options.now ?? Date.now;
  const onError = options.onError ?? ((error: unknown) => console.error('[collector]', error));
  const store = createStore(options.databaseUrl ? { postgres: options.databaseUrl } : { sqlite: options.dbPath ?? ':memory:' });
  const trustProxy = options.trustProxy ?? false;
  const rate = options.visitorRate ?? VISITOR_RATE;
  const writes = createTokenBuckets(rate.burst, rate.perSecond);
  const admin = createAdmin({ store, settings, now, root, trustProxy, onError });
  const adminReady = store.migrate(now()).then(() => admin.init(options.adminPassword ?? null));
  adminReady.catch(() => {}); // reported by listen()
  const mounts: Mount[] = [
    // the admin app's page is served only to a signed-in admin, by the admin routes
    // (and the compiled collector is code of the server, not of the site)
    { prefix: '/dist/', dir: join(root, 'dist'), hidden: ['admin', 'collector'] },
    { prefix: '/', dir: join(root, 'demo') },
  ];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // prefixed, so that a path like `//host/x` stays a path instead of becoming a host
    const url = new URL(`http://collector.invalid${req.url?.startsWith('/') ? req.url : '/'}`);
    res.setHeader('x-content-type-options', 'nosniff');
    // the admin area has its own session and never issues (or records) a visitor one
    if (await admin.handle(req, res, url)) return;
    const address = clientAddress(req, trustProxy);
    // visitor writes past the address's rate: 429 before the body is read or anything is stored
    if (url.pathname === '/index.php' && req.method === 'POST') {
      // wall-clock time, not the injectable clock: a rate is requests per real second
      const wait = writes.take(address, Date.now());
      if (wait > 0) throw new HttpError(429, 'too many requests', { 'retry-after': String(Math.ceil(wait / 1000)) });
    }
    const session = sessionOf(req, isHttps(req, trustProxy));
    if (session.setCookie) res.setHeader('set-cookie', session.setCookie);
    const ctx = (params: URLSearchParams): RouteContext => ({
      store,
      settings,
      now: now(),
      visitor: {
        session: session.id,
        userAgent: req.headers['user-agent'] ?? '',
        ip: storedAddress(address, options.fullIp ?? false),
      },
      host: req.headers.host ?? 'localhost',
      referer: req.headers.referer,
      params,
    });

    if (url.pathname === '/index.php') {
      const params = await requestParams(req, url.searchParams);
      const task = findTask(params);
      if (!task) throw new HttpError(400, 'unknown task');
      if (req.method !== task.method) throw new HttpError(405, 'method not allowed', { allow: task.method });
      return reply(res, await task.run(ctx(params)));
    }
    const read = Object.hasOwn(READS, url.pathname) ? READS[url.pathname] : undefined;
    if (read) {
      if (req.method === 'OPTIONS') return void res.writeHead(204, READ_CORS).end();
      if (req.method !== 'GET') throw new HttpError(405, 'method not allowed', { allow: 'GET, OPTIONS', ...READ_CORS });
      return reply(res, await read(ctx(url.searchParams)), READ_CORS);
    }
    return serveStatic(req, res, url.pathname, url.search, mounts);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!(error instanceof HttpError)) onError(error);
      if (res.headersSent) return void res.destroy();
      const { status, message, headers } = error instanceof HttpError ? error : new HttpError(500, 'internal error');
      sendJson(res, status, { error: message }, headers);
    });
  });

  const routes = [
    ...TASK_KEYS.map((key) => {
      const [option, task] = key.split('/');
      return `/index.php?option=${option}${task ? `&task=${task}` : ''}`;
    }),
    ...Object.keys(READS),
    ...admin.paths,
    ...mounts.map((m) => m.prefix),
  ];

  return {
    server,
    routes,
    async listen(port = 0, host = '127.0.0.1') {
      const { generated } = await adminReady;
      return new Promise((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          // a wildcard address is reachable at the loopback one
          const shown = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
          resolveListen({
            url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`,
            generatedPassword: generated,
          });
        });
      });
    },
    async close() {
      await adminReady.catch(() => {});
      await admin.stop();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
      await store.close();
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
  else sendJson(res, status, answer.json, headers);
}
