import { sourceOf } from './sources';
import { UTM_FIELDS, type UtmField } from '../store';

/**
 * Page addresses as the collector stores them: without the fragment, without the bundle's own QA
 * switches (`?pagepulse-debug=1` turns the debug box on, `pagepulse-heatmap` the overlay) and
 * without the campaign parameters, which are kept apart (`utm`). So `/?pagepulse-debug=1` and
 * `/?utm_source=newsletter` are the page `/`. Everything else in the query stays, byte for byte:
 * `?id=3` and `?id=4` can be different pages of a CMS.
 */

/** Query parameters that name no page: the bundle's QA switches and the campaign parameters. */
const OWN_PARAMS: readonly string[] = ['pagepulse-debug', 'pagepulse-heatmap'];
/** Longest campaign value kept: a tag, not a text. */
const MAX_UTM_CHARS = 200;

/** A page address split into the page and its campaign parameters (null where absent or empty). */
export interface PageAddress {
  page: string;
  utm: Record<UtmField, string | null>;
}

/** `url` without its fragment: `#kontakt` is the same page. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** `url` without its fragment, QA switches and campaign parameters, and the campaign values. */
export function pageAddress(url: string): PageAddress {
  const noHash = withoutFragment(url);
  const mark = noHash.indexOf('?');
  const utm = Object.fromEntries(UTM_FIELDS.map((field) => [field, null])) as Record<UtmField, string | null>;
  if (mark < 0) return { page: noHash, utm };
  const kept: string[] = [];
  for (const pair of noHash.slice(mark + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    if ((UTM_FIELDS as readonly string[]).includes(name)) {
      const value = decode(eq < 0 ? '' : pair.slice(eq + 1)).trim();
      // the first one counts, as in every analytics tool: a link rarely repeats them
      if (value && utm[name as UtmField] === null) utm[name as UtmField] = value.slice(0, MAX_UTM_CHARS);
    } else if (!OWN_PARAMS.includes(name)) kept.push(pair);
  }
  return { page: noHash.slice(0, mark) + (kept.length > 0 ? `?${kept.join('&')}` : ''), utm };
}

/** A query component decoded as a form field (`+` is a space); a broken escape stays as it is. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Longest `referrer` field read: longer is no browser's referrer (it is ignored, the page view kept). */
export const MAX_REFERRER_CHARS = 2048;
/** Longest referring path kept: enough to tell pages apart, not a store for whatever a client sends. */
export const MAX_REFERRER_PATH_CHARS = 300;

/** Where a visitor came from: the referring host, its path (no query, no fragment) and the source's name. */
export interface Referral {
  host: string;
  path: string;
  source: string;
}

/**
 * The page view's `referrer` field (protocol: `document.referrer`, sent when it names another host
 * than the page) as stored, or null: absent, empty, too long, not an http(s) address, or naming
 * the page's own host (the site itself, also over http before its redirect to https). Only the host
 * and the path are kept: a query can carry a search or a name. The path is what the referring
 * page's Referrer-Policy let through: under the browsers' default (`strict-origin-when-cross-origin`)
 * another site's page gives its origin only, so the path is `/` (docs/collector.md "Sources").
 */
export function referralOf(referrer: string | null, page: string): Referral | null {
  if (!referrer || referrer.length > MAX_REFERRER_CHARS) return null;
  try {
    const from = new URL(referrer);
    if ((from.protocol !== 'http:' && from.protocol !== 'https:') || !from.hostname) return null;
    let pageHost: string;
    try {
      pageHost = new URL(page).hostname;
    } catch {
      // a relative page address: nothing to compare with, so nothing is known
      return null;
    }
    if (from.hostname === pageHost) return null;
    return { host: from.hostname, path: from.pathname.slice(0, MAX_REFERRER_PATH_CHARS), source: sourceOf(from.hostname) };
  } catch {
    return null;
  }
}
