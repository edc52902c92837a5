import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The admin session cookie; scoped to /admin so the visitor endpoints never see it. */
export const ADMIN_COOKIE = 'pagepulse_admin';
/**
 * A browser that signed in before carries this (a random token; only its SHA-256 is stored): its
 * sign-ins are limited on their own and checked in a lane of their own, so others (behind the same
 * address, or a flood from a thousand) cannot lock it out. A new browser shares its address's limit.
 */
export const DEVICE_COOKIE = 'pagepulse_device';
export const DEVICE_MS = 90 * 24 * 60 * 60 * 1000;
/** A session ends this long after sign-in, however busy: a stolen cookie is worth a working day at most. */
export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
/** ...and this long after its last request: a forgotten open tab signs itself out. */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
/** Failed sign-ins per client (address prefix, or known device) per window before 429. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 60_000;
/** Shortest admin password accepted (PAGEPULSE_ADMIN_PASSWORD): 12 characters, with 5 guesses a minute per client. */
export const MIN_PASSWORD_CHARS = 12;
/** scrypt cost: N = 2^15 with r = 8 needs 32 MiB and ~60 ms, OWASP's floor for scrypt. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** A generated password: 18 random bytes, 24 base64url characters (144 bits). */
const GENERATED_PASSWORD_BYTES = 18;
/** Session and device tokens: 256 random bits; only their SHA-256 is stored, so a database copy opens nothing. */
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

/** Why a password is not accepted as the admin's, or null when it is. */
export function weakPassword(password: string): string | null {
  return [...password].length < MIN_PASSWORD_CHARS ? `must be at least ${MIN_PASSWORD_CHARS} characters` : null;
}

/** A new random password to print once (144 bits). */
export function generatedPassword(): string {
  return randomBytes(GENERATED_PASSWORD_BYTES).toString('base64url');
}

/** A new random token (session or device) for a cookie. */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What is stored of a token (or of a limiter key): its SHA-256, hex. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * At most `concurrency` password checks at once and `queue` waiting: a burst of sign-ins (scrypt
 * takes ~60 ms and 32 MiB each) cannot stall the collector's other requests; `run` answers null
 * when the queue is full (the caller answers 429 at once).
 */
export function createCheckGate(concurrency: number, queue: number) {
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

/**
 * The password checks of one process: a lane for everyone (two at a time, eight waiting) and a lane
 * reserved for browsers that signed in before (one at a time, four waiting). A flood of guesses from
 * any number of addresses fills the first and never the second: only a device token that the
 * collector issued at a right sign-in gets there, and each such device has its own limit of five a
 * minute.
 */
export function createChecks() {
  const everyone = createCheckGate(2, 8);
  const devices = createCheckGate(1, 4);
  return <T>(knownDevice: boolean, work: () => Promise<T>) => (knownDevice ? devices(work) : everyone(work));
}

/** The Set-Cookie of a browser's device token (see DEVICE_COOKIE). */
export function deviceCookie(token: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${token}; Path=/admin; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}; Max-Age=${DEVICE_MS / 1000}`;
}

/** The Set-Cookie of a session (token) or of its end (null). */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attributes = `Path=/admin; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return token
    ? `${ADMIN_COOKIE}=${token}; ${attributes}; Max-Age=${SESSION_ABSOLUTE_MS / 1000}`
    : `${ADMIN_COOKIE}=; ${attributes}; Max-Age=0`;
}
