import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEVICE_MS, FAILURE_WINDOW_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, STATS_PATH, createAdmin } from './admin';
import { dayAt, zonedDay, type ZonedDay } from './calendar';
import { NO_COUNTRIES, countryLookup, defaultCountryDatabase } from './edge/country';
import { sendError } from './edge/errors';
import { createReporter } from './edge/log';
import { VISITOR_RATE } from './edge/rate-limit';
import { serveStatic, type Mount } from './edge/static';
import { REAL_TIMERS, createJobs, type Timers } from './jobs';
import { createStore, type StoreOptions } from './store';
import {
  DEFAULT_SETTINGS,
  createVisitorTasks,
  describeAgent,
  pageAddress,
  presenceWindowMs,
  sourceOf,
  type Settings,
} from './visitor';

/**
 * The repository root: the nearest folder above this file with a package.json (the sources sit in
 * `collector/server/`, the compiled server in `dist/collector/`).
 */
export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** What the collector opens its store with: the visitor feature's parsers and the admin's lifetimes. */
export const STORE_OPTIONS: StoreOptions = {
  parsers: { agent: describeAgent, page: pageAddress, source: sourceOf },
  lifetimes: {
    sessionAbsoluteMs: SESSION_ABSOLUTE_MS,
    sessionIdleMs: SESSION_IDLE_MS,
    deviceMs: DEVICE_MS,
    attemptWindowMs: FAILURE_WINDOW_MS,
  },
};

function findRoot(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return dir;
  }
}

/** How long a request may take to arrive whole (headers and body) before it is answered 408 and cut. */
export const REQUEST_TIMEOUT_MS = 20_000;
/** The site's time zone is read again at most this often by the visitor tasks (another process may change it). */
const ZONE_EVERY_MS = 60_000;

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
  /** Milliseconds since the epoch; injectable so tests can age data. */
  now?: () => number;
  /** The collector's repeating timers (the hourly retention run, the day totals); injectable for tests. */
  timers?: Timers;
  /** Where unexpected errors go (they are answered with 500, or 503 for an unavailable database, and never stop the server). */
  onError?: (error: unknown, context?: string) => void;
  /** The admin password (PAGEPULSE_ADMIN_PASSWORD, at least 12 characters); without it a stored hash, or a new random password. */
  adminPassword?: string | null;
  /** Behind a reverse proxy: trust its X-Forwarded-For/-Proto/-Host (client address, https, origin check). */
  trustProxy?: boolean;
  /** PAGEPULSE_FULL_IP=1: store client addresses whole instead of shortened (edge/address.ts). */
  fullIp?: boolean;
  /**
   * PAGEPULSE_COUNTRY_DB: the mmdb country database (edge/country.ts); null: no countries (every
   * visitor's is unknown); by default the npm package's DB-IP file.
   */
  countryDatabase?: string | null;
  /** Visitor writes per client (edge/rate-limit.ts); the default never meets a real visitor. */
  visitorRate?: { burst: number; perSecond: number };
  /** PAGEPULSE_SITES: the site's origins, whose pages are recorded (edge/client.ts siteOrigins). */
  sites?: readonly string[];
  /** Sign-ins of every client without a known browser together, per process, before the database (admin/sign-in-gate.ts). */
  signInGate?: { burst: number; perSecond: number };
  /** How long a request may take to arrive (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
}

/** A running (or ready to run) collector. */
export interface Collector {
  server: Server;
  /**
   * Start listening; port 0 picks a free one. `generatedPassword` is the admin password created on
   * this first start (no PAGEPULSE_ADMIN_PASSWORD, none stored): shown once, only its hash is kept.
   */
  listen(port?: number, host?: string): Promise<{ url: string; generatedPassword: string | null }>;
  /** Stop listening, drop open connections, finish the background runs and close the database. */
  close(): Promise<void>;
  /** Count the days that ended into day totals now (the bench and tests; otherwise every ten minutes). */
  buildTotals(): Promise<void>;
  /** Every route: each task as `/index.php?option=..&task=..`, the read and admin paths, the static mounts' prefixes. */
  routes: readonly string[];
}

/**
 * The reference collector: the Joomla components' endpoints over SQLite or PostgreSQL, the admin
 * area, and the demo site. The HTTP edge (edge/) takes a request; the admin feature answers
 * `/admin`, the visitor feature the component tasks and `/api/clicks`, static files the rest. The
 * two features share only the store (store/) and never import each other.
 */
export function createCollector(options: CollectorOptions = {}): Collector {
  const root = resolve(options.root ?? REPO_ROOT);
  const settings: Settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const now = options.now ?? Date.now;
  const report = options.onError ?? createReporter((line) => console.error(line));
  const trustProxy = options.trustProxy ?? false;
  const sites = options.sites ?? [];
  const store = createStore(
    options.databaseUrl ? { postgres: options.databaseUrl } : { sqlite: options.dbPath ?? ':memory:' },
    STORE_OPTIONS,
  );
  let jobs: ReturnType<typeof createJobs> | null = null;
  const admin = createAdmin({
    store,
    now,
    root,
    trustProxy,
    presenceWindowMs: presenceWindowMs(settings),
    sites,
    signInGate: options.signInGate,
    // the old zone's day totals go before the admin's save is answered: a read meanwhile counts the
    // days from the rows, never a day of another zone under this one's name (and its hours by index)
    onTimeZone: async () => {
      await store.stats.reset();
      jobs?.rebuildTotals();
    },
  });
  jobs = createJobs({
    store,
    now,
    timers: options.timers ?? REAL_TIMERS,
    retain: admin.applyRetention,
    timeZone: admin.timeZone,
    onError: report,
  });

  // the start of the site's today, for the visitor tasks: read the zone at most every minute, and
  // the day's bounds once a day (three time-zone conversions a heartbeat were 3 % of a core at 500/s)
  let zone: { name: string; at: number } | null = null;
  let today: (ZonedDay & { zone: string }) | null = null;
  const todayStart = async (at: number): Promise<number> => {
    if (!zone || Math.abs(at - zone.at) > ZONE_EVERY_MS) zone = { name: await admin.timeZone(), at };
    if (!today || today.zone !== zone.name || at < today.start || at >= today.end)
      today = { ...zonedDay(zone.name, dayAt(zone.name, at)), zone: zone.name };
    return today.start;
  };
  const visitor = createVisitorTasks({
    visits: store.visits,
    clicks: store.clicks,
    consents: store.consents,
    settings,
    now,
    trustProxy,
    fullIp: options.fullIp ?? false,
    country: options.countryDatabase === null ? NO_COUNTRIES : countryLookup(options.countryDatabase ?? defaultCountryDatabase()),
    visitorRate: options.visitorRate ?? VISITOR_RATE,
    sites,
    todayStart,
  });
  const ready = (async () => {
    await store.migrate(now());
    // the badge's first count on the readers' side ahead of the totals' run (a first beat waits for it)
    store.visits.startCounts(now());
    const result = await admin.init(options.adminPassword ?? null);
    jobs.start();
    return result;
  })();
  ready.catch(() => {}); // reported by listen()
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
    if (url.pathname === '/admin' || url.pathname.startsWith('/admin/') || url.pathname === STATS_PATH) {
      await admin.handle(req, res, url);
      return;
    }
    if (await visitor.handle(req, res, url)) return;
    return serveStatic(req, res, url.pathname, url.search, mounts);
  }

  const server = createServer(
    {
      // a request that trickles in (headers or body) is answered 408 and cut, instead of holding a connection for minutes
      requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      headersTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1000, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => sendError(req, res, error, report));
    },
  );

  return {
    server,
    routes: [...visitor.routes, ...admin.paths, ...mounts.map((m) => m.prefix)],
    buildTotals: async () => {
      await ready;
      await jobs.buildTotals();
    },
    async listen(port = 0, host = '127.0.0.1') {
      const { generated } = await ready;
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
      await ready.catch(() => {});
      await jobs.stop();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
      await store.close();
    },
  };
}
