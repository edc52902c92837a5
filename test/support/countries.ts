import { readFileSync } from 'node:fs';
import { Reader, type Response } from 'mmdb-lib';
import { defaultCountryDatabase } from '../../collector/server/edge/country';

/**
 * Addresses the collector's country database places in a given country, read from the database file
 * itself (the first `a.b.7.77`, or `2a0x:yy00::77` for IPv6, that it maps there), so that a newer
 * edition of the database does not break a test that names countries.
 */

let reader: Reader<Response> | null = null;
const found = new Map<string, string>();

function codeOf(address: string): string | undefined {
  reader ??= new Reader<Response>(readFileSync(defaultCountryDatabase()));
  return (reader.get(address) as { country_code?: string } | null)?.country_code;
}

/** Public blocks skipped: private, shared, loopback, link-local and documentation ranges start in these. */
const SKIPPED = [0, 10, 100, 127, 169, 172, 192, 198, 203];

/** An IPv4 address (or with `ipv6`, an IPv6 one) of `country` (ISO code) in the database. */
export function addressIn(country: string, ipv6 = false): string {
  const key = `${country}${ipv6 ? '6' : ''}`;
  const known = found.get(key);
  if (known) return known;
  const candidates = ipv6
    ? Array.from({ length: 16 * 256 }, (_, i) => `${(0x2a00 + (i >> 8)).toString(16)}:${(i & 255).toString(16)}00::77`)
    : Array.from({ length: 223 * 86 }, (_, i) => `${1 + Math.floor(i / 86)}.${(i % 86) * 3}.7.77`).filter(
        (a) => !SKIPPED.includes(Number(a.split('.')[0])),
      );
  const address = candidates.find((a) => codeOf(a) === country);
  if (!address) throw new Error(`no ${ipv6 ? 'IPv6' : 'IPv4'} address of ${country} found in the country database`);
  found.set(key, address);
  return address;
}
