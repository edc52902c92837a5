import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Sql } from '../sql';

/** The admin session cookie; scoped to /admin so the visitor endpoints never see it. */
export const ADMIN_COOKIE = 'pagepulse_admin';
/**
 * A browser that signed in before carries this (a random token; only its SHA-256 is stored): its
 * sign-ins are limited on their own, so others behind the same address (a NAT, a proxy) cannot
 * lock it out by failing there. A new browser shares its address's limit.
 */
export const DEVICE_COOKIE = 'pagepulse_device';
export const DEVICE_MS = 90 * 24 * 60 * 60 * 1000;
/** A session ends this long after sign-in, however busy: a stolen cookie is worth a working day at most. */
export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
/** ...and this long after its last request: a forgotten open tab signs itself out. */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** Failed sign-ins per client address per window before 429: a 24-character password is safe at this rate. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 60_000;
/** scrypt cost: N = 2^15 with r = 8 needs 32 MiB and ~60 ms, OWASP's floor for scrypt. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** A generated password: 18 random bytes, 24 base64url characters (144 bits). */
const GENERATED_PASSWORD_BYTES = 18;
/** Session tokens: 256 random bits; only their SHA-256 is stored, so a database copy opens nothing. */
const TOKEN_BYTES = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$key` (base64url parts), self-describing so the cost can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches a stored hash; the comparison takes the same time wherever they differ. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The admin's password hash, sessions and known browsers, kept in the collector's database. */
export interface AdminAuth {
  /** Set up the password: from the environment, or the stored one, or a new random one (returned, to print once). */
  init(fromEnv: string | null): Promise<{ generated: string | null }>;
  check(password: string): Promise<boolean>;
  /** A new session; returns the token for the cookie. */
  open(now: number): Promise<string>;
  /** Whether the token names a live session (and touches it). */
  valid(token: string | null, now: number): Promise<boolean>;
  close(token: string | null): Promise<void>;
  /** Whether a device token names a browser that signed in before (within DEVICE_MS). */
  knownDevice(token: string | null, now: number): Promise<boolean>;
  /** Remember a browser that signed in; returns the token for its device cookie. */
  addDevice(now: number): Promise<string>;
  setting(key: string): Promise<string | null>;
  setSetting(key: string, value: string): Promise<void>;
}

/** Admin auth on an open database (its tables come with the schema: db.ts). */
export function createAdminAuth(sql: Sql): AdminAuth {
  const auth: AdminAuth = {
    async init(fromEnv) {
      const stored = await auth.setting('password_hash');
      if (fromEnv) {
        // re-hashed only when it changed, so a restart keeps the sessions of an unchanged password
        if (!stored || !(await verifyPassword(fromEnv, stored))) {
          const hash = await hashPassword(fromEnv);
          await sql.transaction(async (tx) => {
            await putSetting(tx, 'password_hash', hash);
            await tx.run('DELETE FROM admin_sessions');
          });
        }
        return { generated: null };
      }
      if (stored) return { generated: null };
      const generated = randomBytes(GENERATED_PASSWORD_BYTES).toString('base64url');
      await auth.setSetting('password_hash', await hashPassword(generated));
      return { generated };
    },
    async check(password) {
      const stored = await auth.setting('password_hash');
      return stored !== null && (await verifyPassword(password, stored));
    },
    async open(now) {
      await sql.run('DELETE FROM admin_sessions WHERE created_at < ? OR last_seen < ?', [
        now - SESSION_ABSOLUTE_MS,
        now - SESSION_IDLE_MS,
      ]);
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      await sql.run('INSERT INTO admin_sessions (token_hash, created_at, last_seen) VALUES (?, ?, ?)', [
        tokenHash(token),
        now,
        now,
      ]);
      return token;
    },
    async valid(token, now) {
      if (!token) return false;
      const hash = tokenHash(token);
      const row = await sql.get<{ created_at: number; last_seen: number }>(
        'SELECT created_at, last_seen FROM admin_sessions WHERE token_hash = ?',
        [hash],
      );
      if (!row) return false;
      if (now - row.created_at > SESSION_ABSOLUTE_MS || now - row.last_seen > SESSION_IDLE_MS) {
        await sql.run('DELETE FROM admin_sessions WHERE token_hash = ?', [hash]);
        return false;
      }
      await sql.run('UPDATE admin_sessions SET last_seen = ? WHERE token_hash = ?', [now, hash]);
      return true;
    },
    async close(token) {
      if (token) await sql.run('DELETE FROM admin_sessions WHERE token_hash = ?', [tokenHash(token)]);
    },
    knownDevice: async (token, now) =>
      token !== null &&
      (await sql.get('SELECT created_at FROM admin_devices WHERE token_hash = ? AND created_at >= ?', [
        tokenHash(token),
        now - DEVICE_MS,
      ])) !== undefined,
    async addDevice(now) {
      await sql.run('DELETE FROM admin_devices WHERE created_at < ?', [now - DEVICE_MS]);
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      await sql.run('INSERT INTO admin_devices (token_hash, created_at) VALUES (?, ?)', [tokenHash(token), now]);
      return token;
    },
    setting: async (key) =>
      (await sql.get<{ value: string }>('SELECT value FROM admin_settings WHERE key = ?', [key]))?.value ?? null,
    setSetting: (key, value) => putSetting(sql, key, value),
  };
  return auth;
}

async function putSetting(sql: Sql, key: string, value: string): Promise<void> {
  await sql.run('INSERT INTO admin_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
    key,
    value,
  ]);
}

/** The sign-in limiter: `take` a slot before hashing (0, or milliseconds to wait), `succeed` gives it back. */
export interface FailureLimiter {
  take(key: string, now: number): Promise<number>;
  succeed(key: string, now: number): Promise<void>;
}

/**
 * Sign-in attempts per key (a client address, or a known device) in a sliding window of `windowMs`,
 * at most `max` in it. A slot is TAKEN before the password is hashed, so parallel guesses count; a
 * correct password (or a request that was no guess) gives its slot back. Kept in the database
 * (`admin_attempts`), so that every collector process on one PostgreSQL counts the same guesses
 * (and a restart no longer forgives them). `take` runs in one
 * transaction holding a lock on the key (PostgreSQL: an advisory lock, so parallel requests to
 * several processes count one after another; SQLite: one transaction at a time), deletes the
 * expired rows of every key (the table stays bounded by the window), counts the key's rows and
 * inserts one when there is room.
 */
export function createStoredLimiter(sql: Sql, max = MAX_FAILURES, windowMs = FAILURE_WINDOW_MS): FailureLimiter {
  return {
    // stored as a hash: the table names no address and no device token
    take: (key, now) =>
      sql.transaction(
        async (tx) => {
          const id = tokenHash(key);
          await tx.run('DELETE FROM admin_attempts WHERE at <= ?', [now - windowMs]);
          const row = (await tx.get<{ n: number; oldest: number | null }>(
            'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM admin_attempts WHERE key = ?',
            [id],
          ))!;
          if (row.n >= max) return windowMs - (now - row.oldest!);
          await tx.run('INSERT INTO admin_attempts (key, at) VALUES (?, ?)', [id, now]);
          return 0;
        },
        `sign-in ${tokenHash(key)}`,
      ),
    async succeed(key, now) {
      // the key's latest attempt in the window: the one this request took
      await sql.run(
        `DELETE FROM admin_attempts WHERE id = (
           SELECT id FROM admin_attempts WHERE key = ? AND at > ? ORDER BY at DESC, id DESC LIMIT 1)`,
        [tokenHash(key), now - windowMs],
      );
    },
  };
}

/**
 * At most `concurrency` password hashes at once and `queue` waiting: a burst of sign-ins (scrypt
 * takes ~60 ms and 32 MiB each) cannot stall the collector's other requests; `run` answers null
 * when the queue is full (the caller answers 429 at once).
 */
export function createHashGate(concurrency = 2, queue = 8) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(work: () => Promise<T>): Promise<T | null> {
    if (running >= concurrency) {
      if (waiting.length >= queue) return null;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** The admin cookie's token (or another cookie's value), if the request carries one. */
export function adminToken(req: IncomingMessage, name = ADMIN_COOKIE): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** The Set-Cookie of a browser's device token (see DEVICE_COOKIE). */
export function deviceCookie(token: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${token}; Path=/admin; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}; Max-Age=${DEVICE_MS / 1000}`;
}

/** Whether the request came over TLS, directly or (as the proxy says) to the proxy. */
export function isHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  return (
    trustProxy &&
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]!
      .trim() === 'https'
  );
}

/** The Set-Cookie of a session (token) or of its end (null). */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attributes = `Path=/admin; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return token
    ? `${ADMIN_COOKIE}=${token}; ${attributes}; Max-Age=${SESSION_ABSOLUTE_MS / 1000}`
    : `${ADMIN_COOKIE}=; ${attributes}; Max-Age=0`;
}

/** The client's address: the socket's, or behind a trusted proxy the last X-Forwarded-For hop it added. */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy
    ? String(req.headers['x-forwarded-for'] ?? '')
        .split(',')
        .pop()
        ?.trim()
    : '';
  return forwarded || req.socket.remoteAddress || 'unknown';
}

/**
 * Whether a state-changing request comes from our own pages: its Origin must name our scheme, host
 * and port (a form post or fetch from another site carries that site's origin; `https://host` is
 * another origin than `http://host`). Browsers send Origin on every POST; a request without it is
 * refused too, unless Sec-Fetch-Site says it is same-origin.
 */
export function sameOrigin(req: IncomingMessage, trustProxy: boolean): boolean {
  const host =
    (trustProxy
      ? String(req.headers['x-forwarded-host'] ?? '')
          .split(',')[0]!
          .trim()
      : '') || req.headers.host;
  const origin = req.headers.origin;
  if (!origin) return req.headers['sec-fetch-site'] === 'same-origin';
  try {
    const parsed = new URL(origin);
    return origin !== 'null' && parsed.host === host && parsed.protocol === (isHttps(req, trustProxy) ? 'https:' : 'http:');
  } catch {
    return false;
  }
}
