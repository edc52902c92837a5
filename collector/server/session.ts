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

/** The visitor's session id and, when it had none (or a forged one), the Set-Cookie that issues it. */
export function sessionOf(req: IncomingMessage): { id: string; setCookie: string | null } {
  const current = readCookie(req.headers.cookie ?? '', SESSION_COOKIE);
  if (current && SESSION_VALUE.test(current)) return { id: current, setCookie: null };
  const id = randomBytes(SESSION_BYTES).toString('hex');
  // no Max-Age: a browser-session cookie, like Joomla's
  return { id, setCookie: `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax` };
}

/** A short, stable pseudonym of a session: the read API must never reveal a cookie value. */
export function visitorId(session: string): string {
  return createHash('sha256').update(session).digest('hex').slice(0, 12);
}

function readCookie(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
