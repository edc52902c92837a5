import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Joomla names its session cookie with 32 hex characters (an md5 of the site's secret and name).
 * Ours is derived from a fixed text, so a restarted collector still knows its visitors.
 */
export const SESSION_COOKIE = createHash('md5').update('pagepulse-collector:site').digest('hex');

/** What a session value we issued looks like; anything else is replaced, never stored. */
const SESSION_VALUE = /^[a-z0-9]{26,128}$/i;

/** 128 random bits, as hex: unguessable, and longer than PHP's 26-character session ids. */
const SESSION_BYTES = 16;

/**
 * The visitor's session as stored (the SHA-256 of the cookie's value, hex: a copy of the database
 * cannot be replayed as a visitor) and, when it had none (or a forged one), the Set-Cookie that
 * issues it; `Secure` when the request came over https.
 */
export function sessionOf(req: IncomingMessage, secure = false): { id: string; setCookie: string | null } {
  const current = readCookie(req.headers.cookie ?? '', SESSION_COOKIE);
  if (current && SESSION_VALUE.test(current)) return { id: sha256(current), setCookie: null };
  const value = randomBytes(SESSION_BYTES).toString('hex');
  // no Max-Age: a browser-session cookie, like Joomla's
  return {
    id: sha256(value),
    setCookie: `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A visitor's pseudonym from their cookie value: the first 12 hex characters of its SHA-256. */
export function visitorId(cookieValue: string): string {
  return pseudonymOf(sha256(cookieValue));
}

/** The pseudonym of a stored session (already the SHA-256): its first 12 hex characters. */
export function pseudonymOf(stored: string): string {
  return stored.slice(0, 12);
}

function readCookie(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
