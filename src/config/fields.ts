import * as z from '../platform/schema-core';
import { isLooseNumber, matches, maxLength, numberWhere, oneOf, string } from '../platform/schema';
import type { Service } from './config';

/**
 * One zod/mini schema per config key: every source (page globals, PagePulseConfig, data-*
 * attributes, the address) goes through the same field, so a value means the same wherever it
 * comes from. Each schema turns the loose forms CMS templates write ("1", "on", "6") into one type.

 */

/** on/off, 1/0, true/false, yes/no, as booleans, numbers or strings. */
const isOnOff = (v: unknown): boolean =>
  v === true || v === false || v === 0 || v === 1 || (typeof v === 'string' && /^\s*(on|off|1|0|true|false|yes|no)\s*$/i.test(v));
const onOffValue = (v: unknown): boolean =>
  v === true || v === 1 || (typeof v === 'string' && /^\s*(on|1|true|yes)\s*$/i.test(v));
export const onOff = oneOf(isOnOff, onOffValue);

/** An address the bundle may call or link to: http(s) absolute, protocol-relative or relative. */
export const safeUrl = z.pipe(
  string().check(
    z.refine((v) => v.length > 0),
    maxLength(2048),
    z.refine((v) => !/^\s*[a-z][a-z0-9+.-]*:/i.test(v) || /^\s*https?:/i.test(v), 'only http(s) or relative addresses'),
  ),
  z.transform((v) => v.trim()),
);

/** The site base: like safeUrl, always ending with `/`. */
export const baseUrl = z.pipe(
  safeUrl,
  z.transform((v) => (v.endsWith('/') ? v : `${v}/`)),
);

/** Milliseconds for the keep-alive, or off. */
const OFF: unknown[] = [false, 'off', '0', 0];
export const keepalive = z.pipe(
  oneOf(
    (v) => OFF.includes(v) || isLooseNumber(v),
    (v) => (OFF.includes(v) ? null : Number(v)),
  ),
  z.custom<number | null>(
    (n) => n === null || ((n as number) >= 100 && (n as number) <= 86_400_000),
    'between 100 and 86400000 ms',
  ),
);

/** A language the bundle speaks. */
export const lang = z.pipe(
  string().check(matches(/^\s*(de|en)([-_][a-z]{2})?\s*$/i)),
  z.transform((v) => (v.trim().slice(0, 2).toLowerCase() === 'en' ? 'en' : 'de') as 'de' | 'en'),
);

/** An ISO 3166 alpha-2 country code. */
export const country = z.pipe(
  string().check(matches(/^\s*[a-z]{2}\s*$/i)),
  z.transform((v) => v.trim().toUpperCase()),
);

/** A CSS selector; a syntax error is caught at the edge instead of at click time. */
export const selector = string().check(
  z.refine((v) => v.length > 0),
  maxLength(500),
  z.refine((v) => {
    try {
      document.createDocumentFragment().querySelector(v);
      return true;
    } catch {
      return false;
    }
  }, 'not a valid CSS selector'),
);

/** The click selector mode (docs/protocol.md#selector-departures). */
export const selectorMode = z.custom<'original' | 'stable'>((v) => v === 'original' || v === 'stable');

/** A short display text (category names, placeholder and deny messages). */
export const text = z.pipe(
  string().check(maxLength(2000)),
  z.transform((v) => v.trim()),
);

/** Request timeout in ms. */
export const timeoutMs = numberWhere((n) => n >= 100 && n <= 120_000, 'between 100 and 120000 ms');

/** com_gdpr's compliance type: only opt-in changes the defaults; opt-out and info keep them. */
export const complianceType = z.pipe(
  string().check(matches(/^\s*(opt-?in|opt-?out|info)\s*$/i)),
  z.transform((v) => (/in/i.test(v) ? 'opt-in' : 'opt-out') as 'opt-in' | 'opt-out'),
);

/** A list of at most `max` strings, each passing `test`: one custom check instead of z.array (its element, size-cap and async machinery). */
const listOf = (max: number, test: (item: string) => boolean) =>
  z.custom<string[]>((v) => Array.isArray(v) && v.length <= max && v.every((item) => typeof item === 'string' && test(item)));

/**
 * Address patterns per category (and per service): `host`, `host/path`, `*` for a whole label
 * (`maps.google.*`); a host with at least two labels, no scheme, query or fragment.
 */
export const domainList = listOf(200, (d) => d.length <= 253 && /^[a-z0-9*-]+(\.[a-z0-9*-]+)+(\/[^\s?#]*)?$/i.test(d));

/** Google Consent Mode: auto (when gtag/dataLayer is on the page), on, off (or any other on/off form). */
export const gcm = oneOf(
  (v) => v === 'auto' || isOnOff(v),
  (v) => (v === 'auto' ? 'auto' : onOffValue(v) ? 'on' : 'off') as 'auto' | 'on' | 'off',
);

/** A cookie name pattern: a cookie name, or a name prefix followed by `*` (`_ga_*`). */
const COOKIE_PATTERN = /^[\w!#$%&'+.^`|~-]{1,128}\*?$/;

/** Cookie name patterns cleared while their category or service is not allowed. */
export const cookiePatterns = listOf(100, (p) => COOKIE_PATTERN.test(p));

/** The consent policy's revision: an integer 0..1e9. */
export const revision = numberWhere((n) => Number.isInteger(n) && n >= 0 && n <= 1e9);

/** A short plain text of at most `max` characters with something in it. */
const short = (v: unknown, max: number): boolean => typeof v === 'string' && /\S/.test(v) && v.length <= max;

/**
 * One `PagePulseConfig.services` entry (`{key: {...}}`, one per source setting): null drops the
 * service; otherwise a whole entry (category and name required; hosts and cookies default to none;
 * provider, privacyUrl, purpose and snippets optional) that replaces a built-in one of the same key.
 */
export const serviceEntry = z.custom<Record<string, Service | null>>((v) =>
  Object.values(v ?? 0).every(
    (entry: Partial<Service> | null) =>
      entry === null ||
      (typeof entry === 'object' &&
        [2, 3, 4].includes(entry.category!) &&
        short(entry.name, 100) &&
        (entry.provider === undefined || short(entry.provider, 200)) &&
        (entry.purpose === undefined || short(entry.purpose, 500)) &&
        (entry.privacyUrl === undefined || (short(entry.privacyUrl, 2048) && /^https?:\/\//i.test(entry.privacyUrl))) &&
        (entry.hosts === undefined || z.safeParse(domainList, entry.hosts).success) &&
        (entry.cookies === undefined || z.safeParse(cookiePatterns, entry.cookies).success) &&
        (entry.snippets === undefined ||
          z.safeParse(
            listOf(20, (p) => p.length >= 4 && p.length <= 200),
            entry.snippets,
          ).success)),
  ),
);
