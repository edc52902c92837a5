import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { withoutPort } from './address';

/**
 * What a request says about its client, as the edge reads it: the address, whether it came over
 * TLS, and which origin it belongs to. Behind a reverse proxy (PAGEPULSE_TRUST_PROXY=1) the proxy's
 * `X-Forwarded-For`, `-Proto` and `-Host` are trusted; never without one (a client could name any).
 */

/**
 * The client's address: the socket's, or behind a trusted proxy the last X-Forwarded-For hop it
 * added, without a port the proxy may have appended (the country lookup and the limits take the address).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy
    ? String(req.headers['x-forwarded-for'] ?? '')
        .split(',')
        .pop()
        ?.trim()
    : '';
  return (forwarded && withoutPort(forwarded)) || req.socket.remoteAddress || 'unknown';
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

/** The origin the browser talked to: our scheme and the host it asked for (`http://127.0.0.1:5173`). */
export function ownOrigin(req: IncomingMessage, trustProxy: boolean): string | null {
  const host =
    (trustProxy
      ? String(req.headers['x-forwarded-host'] ?? '')
          .split(',')[0]!
          .trim()
      : '') || req.headers.host;
  if (!host) return null;
  try {
    return new URL(`${isHttps(req, trustProxy) ? 'https' : 'http'}://${host}`).origin;
  } catch {
    return null;
  }
}

/** An origin as `new URL().origin` writes it (lower-case host, default port dropped), or null. */
export function originOf(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether a state-changing admin request comes from our own pages: its Origin must name our scheme,
 * host and port (a form post or fetch from another site carries that site's origin; `https://host`
 * is another origin than `http://host`). Browsers send Origin on every POST; a request without it
 * is refused too, unless Sec-Fetch-Site says it is same-origin.
 */
export function sameOrigin(req: IncomingMessage, trustProxy: boolean): boolean {
  const origin = req.headers.origin;
  if (!origin) return req.headers['sec-fetch-site'] === 'same-origin';
  const own = ownOrigin(req, trustProxy);
  return origin !== 'null' && own !== null && originOf(origin) === own;
}

/**
 * The origin a connection reached, read from the socket (its local address and port), never from
 * the request's headers: `http://127.0.0.1:5173` for a collector reached directly. An IPv4-mapped
 * address (a dual-stack socket) as IPv4.
 */
export function socketOrigin(req: IncomingMessage): string | null {
  const { localAddress, localPort } = req.socket;
  if (!localAddress || !localPort) return null;
  const plain = localAddress.startsWith('::ffff:') && isIP(localAddress.slice(7)) === 4 ? localAddress.slice(7) : localAddress;
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return originOf(`${scheme}://${isIP(plain) === 6 ? `[${plain}]` : plain}:${localPort}`);
}

/**
 * The site's origins for a visitor request: whose pages are recorded and whose pages may call.
 * With PAGEPULSE_SITES (`sites`): those, and the collector's own address when it is reached
 * directly (socketOrigin; behind a proxy that is the proxy's upstream, no page of the site), never
 * what the request calls itself: `Host` and `X-Forwarded-Host` are any client's to name (a forged
 * one made any host's pages "of this site"). Without: the origin the request came to (ownOrigin),
 * as the demo and a single-host site need, so any client naming a host can record its pages.
 */
export function siteOrigins(req: IncomingMessage, trustProxy: boolean, sites: ReadonlySet<string>): (origin: string) => boolean {
  if (sites.size === 0) {
    const own = ownOrigin(req, trustProxy);
    return (origin) => origin === own;
  }
  const direct = trustProxy ? null : socketOrigin(req);
  return (origin) => sites.has(origin) || origin === direct;
}

/**
 * Whether a visitor call may come from the Origin it names: one of the site's (siteOrigins).
 * `Origin: null` (a sandboxed frame, a `data:` page) and every other site are refused; a call
 * without Origin (not from a browser: a browser names it on every POST) is taken, since a client
 * that leaves it out could as well name ours.
 */
export function allowedOrigin(req: IncomingMessage, trustProxy: boolean, sites: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const parsed = originOf(origin);
  return parsed !== null && siteOrigins(req, trustProxy, sites)(parsed);
}

/** A cookie's value, if the request carries it. */
export function readCookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
