import { isAbsolute, resolve } from 'node:path';
import { MIN_PASSWORD_CHARS } from './admin';
import { originOf } from './edge/client';
import { defaultCountryDatabase } from './edge/country';
import { VISITOR_RATE } from './edge/rate-limit';
import { DEFAULT_SETTINGS, type Settings } from './visitor';

export { DEFAULT_SETTINGS, type Settings };

/** Everything the command line needs to start a collector. */
export interface ServerOptions {
  host: string;
  port: number;
  /** SQLite file (absolute) or `:memory:`; unused when `databaseUrl` is set. */
  dbPath: string;
  /**
   * PAGEPULSE_DATABASE_URL (`postgres://user:password@host:port/database`, environment only: it
   * usually holds a password): the collector stores everything in that PostgreSQL database instead
   * of SQLite, and several collector processes may share it. Null: SQLite.
   */
  databaseUrl: string | null;
  settings: Settings;
  /** PAGEPULSE_ADMIN_PASSWORD (environment only: a config file is easier to leak; at least 12 characters), or null. */
  adminPassword: string | null;
  /** PAGEPULSE_SITES: the site's origins besides the collector's own (comma-separated), whose pages are recorded. */
  sites: string[];
  /** PAGEPULSE_TRUST_PROXY=1: the collector runs behind a reverse proxy that sets X-Forwarded-*. */
  trustProxy: boolean;
  /** PAGEPULSE_FULL_IP=1: client addresses stored whole (the site owner's decision), else shortened. */
  fullIp: boolean;
  /**
   * PAGEPULSE_COUNTRY_DB: the mmdb country database file (absolute), by default the npm package's
   * DB-IP file (edge/country.ts); `off`: null, no countries.
   */
  countryDatabase: string | null;
  /** PAGEPULSE_VISITOR_RATE / _BURST: visitor writes per client address (rate-limit.ts). */
  visitorRate: { burst: number; perSecond: number };
  /** PAGEPULSE_WORKERS: collector processes on one port (node's cluster module); more than 1 needs PostgreSQL. */
  workers: number;
}

/** Where data goes by default: git-ignored, next to the repository's other generated files. */
const DEFAULT_DB = '.data/pagepulse.sqlite';

type Parse = (raw: unknown, name: string) => unknown;

const text: Parse = (raw, name) => {
  if (typeof raw !== 'string' || raw.trim() === '') throw new Error(`${name} must be a non-empty text`);
  return raw.trim();
};

const number =
  (min: number, max: number, integer = false): Parse =>
  (raw, name) => {
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < min ||
      value > max ||
      (integer && !Number.isInteger(value))
    ) {
      throw new Error(
        `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(raw)}`,
      );
    }
    return value;
  };

const flag: Parse = (raw, name) => {
  const value = String(raw).trim().toLowerCase();
  if (['1', 'true', 'on'].includes(value)) return 1;
  if (['0', 'false', 'off'].includes(value)) return 0;
  throw new Error(`${name} must be 0 or 1, got ${JSON.stringify(raw)}`);
};

/** A list of origins (`https://www.example.org`), comma-separated in the environment, an array in the file. */
const origins: Parse = (raw, name) => {
  const list = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
  return list
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const origin = originOf(item);
      if (origin === null || origin !== item.replace(/\/$/, ''))
        throw new Error(`${name} must list origins such as https://www.example.org, got ${JSON.stringify(item)}`);
      return origin;
    });
};

/** Each option: its key in the JSON config file, its environment variable, its parser. */
const FIELDS = [
  { key: 'host', env: 'HOST', parse: text },
  { key: 'port', env: 'PORT', parse: number(0, 65535, true) },
  { key: 'db', env: 'PAGEPULSE_DB', parse: text },
  { key: 'daemonrefresh', env: 'PAGEPULSE_DAEMONREFRESH', parse: number(0.01, 3600) },
  { key: 'enable_debug', env: 'PAGEPULSE_DEBUG', parse: flag },
  { key: 'daemontimeout', env: 'PAGEPULSE_DAEMONTIMEOUT', parse: number(0, 525_600) },
  { key: 'heatmap_max_valid_width', env: 'PAGEPULSE_HEATMAP_MAX_WIDTH', parse: number(1, 100_000, true) },
  { key: 'heatmap_max_valid_height', env: 'PAGEPULSE_HEATMAP_MAX_HEIGHT', parse: number(1, 100_000, true) },
  { key: 'trust_proxy', env: 'PAGEPULSE_TRUST_PROXY', parse: flag },
  { key: 'full_ip', env: 'PAGEPULSE_FULL_IP', parse: flag },
  { key: 'country_db', env: 'PAGEPULSE_COUNTRY_DB', parse: text },
  { key: 'visitor_rate', env: 'PAGEPULSE_VISITOR_RATE', parse: number(0.1, 100_000) },
  { key: 'visitor_burst', env: 'PAGEPULSE_VISITOR_BURST', parse: number(1, 1_000_000, true) },
  { key: 'workers', env: 'PAGEPULSE_WORKERS', parse: number(1, 64, true) },
  { key: 'sites', env: 'PAGEPULSE_SITES', parse: origins },
] as const;

/**
 * Settings a PAGEPULSE_CONFIG file cannot hold, by design, by the file keys an admin may try
 * (`PAGEPULSE_DATABASE_URL`, `databaseUrl`, `database_url`...: letters only, lower case, without
 * `pagepulse`): a config file is easier to leak than the environment.
 */
const ADMIN_PASSWORD_ONLY =
  'the admin password is read from the environment only (PAGEPULSE_ADMIN_PASSWORD): a config file is easier to leak';
const ENVIRONMENT_ONLY = new Map<string, string>([
  [
    'databaseurl',
    'the PostgreSQL URL is read from the environment only (PAGEPULSE_DATABASE_URL), as it usually holds a password',
  ],
  ['adminpassword', ADMIN_PASSWORD_ONLY],
  ['password', ADMIN_PASSWORD_ONLY],
]);

/** A key's letters, lower case, without a leading `pagepulse`: `PAGEPULSE_TRUST_PROXY` and `trustProxy` are `trustproxy`. */
const bare = (key: string): string =>
  key
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .replace(/^pagepulse/, '');

/** A file key of another spelling (`PORT`, `trustProxy`, `PAGEPULSE_DEBUG`) → the key the file reads. */
const SPELLINGS = new Map<string, string>(
  FIELDS.flatMap((field) => [[bare(field.env), field.key] as const, [bare(field.key), field.key] as const]),
);

/**
 * Why each key of the file that is not read is ignored, one line each, naming the key and never its
 * value (it may be a password): the file used to drop them silently, and a database URL put there
 * ran the collector on a local SQLite file.
 */
function ignoredKeys(file: Record<string, unknown>, path: string): string[] {
  const known = new Set<string>(FIELDS.map((field) => field.key));
  return Object.keys(file)
    .filter((key) => !known.has(key))
    .map((key) => {
      const reason = ENVIRONMENT_ONLY.get(bare(key));
      if (reason) return `PAGEPULSE_CONFIG ${path}: key ${JSON.stringify(key)} ignored: ${reason}`;
      const spelling = SPELLINGS.get(bare(key));
      if (spelling)
        return `PAGEPULSE_CONFIG ${path}: key ${JSON.stringify(key)} ignored: this setting's key in the file is ${JSON.stringify(spelling)}`;
      return `PAGEPULSE_CONFIG ${path}: unknown key ${JSON.stringify(key)} ignored (the file's keys: ${[...known].join(', ')})`;
    });
}

/** The environment variables the collector reads, for the start-up help. */
export const ENV_NAMES: readonly string[] = [
  'PAGEPULSE_CONFIG',
  'PAGEPULSE_ADMIN_PASSWORD',
  'PAGEPULSE_DATABASE_URL',
  ...FIELDS.map((field) => field.env),
];

/** A PostgreSQL connection URL, or null when none is set; anything else throws with the variable's name. */
function databaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(raw.trim());
  } catch {
    // reported below, without echoing a value that may hold a password
  }
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:'))
    throw new Error('PAGEPULSE_DATABASE_URL must be a postgres://user:password@host:port/database URL');
  return raw.trim();
}

/**
 * Options from defaults < the JSON file named by PAGEPULSE_CONFIG < environment variables.
 * A bad value throws with its name: a collector that silently ran on a default would mislead QA.
 * A key of the file that is not read goes to `warn`, one line each (ignoredKeys).
 */
export function loadOptions(
  env: NodeJS.ProcessEnv,
  readText: (path: string) => string,
  root: string,
  warn: (line: string) => void = console.warn,
): ServerOptions {
  let file: Record<string, unknown> = {};
  if (env.PAGEPULSE_CONFIG) {
    const parsed: unknown = JSON.parse(readText(env.PAGEPULSE_CONFIG));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`PAGEPULSE_CONFIG ${env.PAGEPULSE_CONFIG} must hold a JSON object of settings`);
    file = parsed as Record<string, unknown>;
    for (const line of ignoredKeys(file, env.PAGEPULSE_CONFIG)) warn(line);
  }
  const values: Record<string, unknown> = {
    host: '127.0.0.1',
    port: 5173,
    db: null,
    trust_proxy: 0,
    full_ip: 0,
    country_db: null,
    visitor_rate: VISITOR_RATE.perSecond,
    visitor_burst: VISITOR_RATE.burst,
    workers: 1,
    sites: [],
    ...DEFAULT_SETTINGS,
  };
  for (const { key, env: name, parse } of FIELDS) {
    if (file[key] !== undefined) values[key] = parse(file[key], `${key} in ${env.PAGEPULSE_CONFIG}`);
    if (env[name] !== undefined && env[name] !== '') values[key] = parse(env[name], name);
  }
  const db = values.db as string | null;
  const countryDb = values.country_db as string | null;
  const url = databaseUrl(env.PAGEPULSE_DATABASE_URL);
  // several processes on one SQLite file would each keep their own limits and retention runs
  if ((values.workers as number) > 1 && !url)
    throw new Error('PAGEPULSE_WORKERS above 1 needs PAGEPULSE_DATABASE_URL (PostgreSQL)');
  const password = env.PAGEPULSE_ADMIN_PASSWORD ? env.PAGEPULSE_ADMIN_PASSWORD : null;
  if (password !== null && [...password].length < MIN_PASSWORD_CHARS)
    throw new Error(`PAGEPULSE_ADMIN_PASSWORD must be at least ${MIN_PASSWORD_CHARS} characters`);
  return {
    host: values.host as string,
    port: values.port as number,
    // a path given by the user is relative to where they are; the default lives in the repository
    dbPath: db === ':memory:' ? db : db ? (isAbsolute(db) ? db : resolve(db)) : resolve(root, DEFAULT_DB),
    databaseUrl: url,
    workers: values.workers as number,
    adminPassword: password,
    sites: values.sites as string[],
    trustProxy: values.trust_proxy === 1,
    fullIp: values.full_ip === 1,
    countryDatabase:
      countryDb === null ? defaultCountryDatabase() : countryDb.toLowerCase() === 'off' ? null : resolve(countryDb),
    visitorRate: { burst: values.visitor_burst as number, perSecond: values.visitor_rate as number },
    settings: {
      daemonrefresh: values.daemonrefresh as number,
      enable_debug: values.enable_debug as 0 | 1,
      daemontimeout: values.daemontimeout as number,
      heatmap_max_valid_width: values.heatmap_max_valid_width as number,
      heatmap_max_valid_height: values.heatmap_max_valid_height as number,
    },
  };
}
