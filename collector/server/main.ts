// `npm run collector` (compiled, dist/collector/main.js) or `tsx collector/server/main.ts`: the reference collector and the demo site, configured by the
// environment (see options.ts), stopped cleanly by Ctrl-C or SIGTERM. With PAGEPULSE_WORKERS=N (PostgreSQL
// only) this process starts N collector processes on one port (node's cluster module) and keeps them running (supervisor.ts).
import cluster from 'node:cluster';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT, createCollector } from './app';
import { ENV_NAMES, loadOptions, type ServerOptions } from './options';
import { superviseWorkers } from './supervisor';
import { bookmarklet } from './visitor';

/** How long a shutdown may take before the process exits anyway (a stuck connection, say). */
const SHUTDOWN_GRACE_MS = 3000;

let options: ServerOptions;
try {
  // the file's ignored keys, once: each worker of PAGEPULSE_WORKERS reads the options again
  options = loadOptions(
    process.env,
    (path) => readFileSync(path, 'utf8'),
    REPO_ROOT,
    (line) => {
      if (cluster.isPrimary) console.warn(`pagepulse collector: ${line}`);
    },
  );
} catch (error) {
  console.error(`pagepulse collector: ${(error as Error).message}\nsettings come from: ${ENV_NAMES.join(', ')}`);
  process.exit(2);
}

if (options.workers > 1 && cluster.isPrimary) {
  await superviseWorkers(options.workers);
  // the primary only starts, replaces and stops the workers
  await new Promise(() => {});
}

// the database's folder, when we create it, only for the collector's user (the file is 0600: store/index.ts)
if (!options.databaseUrl && options.dbPath !== ':memory:') mkdirSync(dirname(options.dbPath), { recursive: true, mode: 0o700 });
const collector = createCollector({
  dbPath: options.dbPath,
  databaseUrl: options.databaseUrl,
  settings: options.settings,
  adminPassword: options.adminPassword,
  trustProxy: options.trustProxy,
  fullIp: options.fullIp,
  countryDatabase: options.countryDatabase,
  visitorRate: options.visitorRate,
  sites: options.sites,
});
const { url, generatedPassword } = await collector.listen(options.port, options.host).catch((error: Error) => {
  console.error(`pagepulse collector: cannot start on ${options.host}:${options.port}: ${error.message}`);
  process.exit(1);
});

/** `host:port/database` of a PostgreSQL URL, without its user and password. */
function databaseName(databaseUrl: string): string {
  const parsed = new URL(databaseUrl);
  return `${parsed.host}${parsed.pathname}`;
}

console.log(`PagePulse collector and demo site: ${url}/`);
// the URL's password is never printed
console.log(`database: ${options.databaseUrl ? `PostgreSQL ${databaseName(options.databaseUrl)}` : options.dbPath}`);
console.log(`countries: ${options.countryDatabase ?? 'off (PAGEPULSE_COUNTRY_DB=off)'}`);
console.log(`configparams: ${JSON.stringify(options.settings)}`);
if (options.sites.length)
  console.log(
    `pages recorded: ${options.sites.join(', ')} (PAGEPULSE_SITES)${options.trustProxy ? '' : `, and this collector's own ${url}`}`,
  );
if (!existsSync(join(REPO_ROOT, 'dist', 'pagepulse.iife.js')))
  console.warn('dist/pagepulse.iife.js is missing: run `npm run build` first');
if (generatedPassword) {
  // shown this once: only its scrypt hash is stored
  console.log(
    `admin area: ${url}/admin/\nadmin password (generated, shown only now; set PAGEPULSE_ADMIN_PASSWORD to choose one): ${generatedPassword}`,
  );
} else
  console.log(
    `admin area: ${url}/admin/ (password ${process.env.PAGEPULSE_ADMIN_PASSWORD ? 'from PAGEPULSE_ADMIN_PASSWORD' : 'as stored in the database'})`,
  );
console.log(`QA bookmarklet (drag the demo page's link, or paste as a bookmark's address):\n${bookmarklet(url)}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1); // a second Ctrl-C: do not wait
    stopping = true;
    console.log(`\n${signal}: closing`);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    collector.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('closing failed:', error);
        process.exit(1);
      },
    );
  });
}
