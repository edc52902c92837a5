import { isIP } from 'node:net';

/**
 * A client address as the collector stores it: shortened by default, IPv4 to its /24
 * (`203.0.113.77` -> `203.0.113.0`) and IPv6 to its /48 (`2001:db8:1234::`), as Matomo and
 * Plausible anonymise; an IPv4-mapped IPv6 address (`::ffff:203.0.113.77`, what node reports on a
 * dual-stack socket) counts as IPv4. With `full` (PAGEPULSE_FULL_IP=1, the site owner's decision,
 * for example when a consent record must name the full address) it is kept whole. A port a proxy
 * appended (withoutPort) is dropped; anything else that is not an address is stored as an empty string.
 */
export function storedAddress(address: string, full: boolean): string {
  const bare = withoutPort(address);
  const plain = bare.startsWith('::ffff:') && isIP(bare.slice(7)) === 4 ? bare.slice(7) : bare;
  const kind = isIP(plain);
  if (kind === 0) return '';
  if (full) return plain;
  if (kind === 4) return plain.replace(/\.\d+$/, '.0');
  return `${expand(plain).slice(0, 3).join(':')}::`;
}

/**
 * The one limit key of every client whose address is not an address (a proxy's odd forwarded
 * value): shared, so a client cannot get a fresh bucket for each value it makes up.
 */
export const UNPARSABLE_KEY = 'unparsable';

/**
 * The key of the per-client limits: the address's /24 (IPv4) or /48 (IPv6), what the collector
 * stores of it by default. 200 addresses of one /24 are one client here, as they are in the
 * stored records; whole addresses (PAGEPULSE_FULL_IP) change what is stored, not this. A port
 * counts for nothing (one bucket per source port was no limit), and an unparsable value is UNPARSABLE_KEY.
 */
export function limitKey(address: string): string {
  return storedAddress(address, false) || UNPARSABLE_KEY;
}

/**
 * An address without the port some proxies append to X-Forwarded-For (IIS ARR, Azure App Service):
 * `203.0.113.7:51234` -> `203.0.113.7`, `[2001:db8::1]:443` and `[2001:db8::1]` -> `2001:db8::1`.
 * A bare IPv6 address keeps its colons; anything else is returned as it is.
 */
export function withoutPort(address: string): string {
  const text = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed && isIP(bracketed[1]!) === 6) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  if (v4 && isIP(v4[1]!) === 4) return v4[1]!;
  return text;
}

/** The eight groups of an IPv6 address, `::` expanded (an embedded IPv4 tail as two groups). */
function expand(address: string): string[] {
  let text = address.split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => (parseInt(group, 16) || 0).toString(16));
}
