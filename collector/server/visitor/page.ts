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

/**
 * The host a visitor came from, when a request's `Referer` names another host than the page's (the
 * same host over http is the site itself, before its redirect to https); else null. The bundle's heartbeat is a same-origin POST, so its `Referer` is the page itself (or
 * its origin) and this is null for it: the wire does not carry `document.referrer` (docs/collector.md
 * "Referrers"). Only the host is kept: a full referring address can carry a search or a name.
 */
export function referrerHost(referer: string | undefined, page: string): string | null {
  if (!referer) return null;
  try {
    const from = new URL(referer);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') return null;
    let pageHost: string | null = null;
    try {
      pageHost = new URL(page).hostname;
    } catch {
      // a relative page address: nothing to compare with, so nothing is known
      return null;
    }
    return from.hostname === pageHost ? null : from.hostname;
  } catch {
    return null;
  }
}
