import { encodeForm } from '../platform/encode';

/** What the heartbeat reports about the page it runs on. */
export interface PageFacts {
  /** location.href at send time. */
  href: string;
  /** `module_available`: 1 when the statistics module (`#jes_mod`) is on the page, else 0. */
  moduleAvailable: 0 | 1;
  /** window.outerWidth / outerHeight. */
  outerWidth: number;
  outerHeight: number;
  /** `windowsver` once the client hints said Windows 11 (`'Windows 11'`), else null. */
  windowsVersion: string | null;
  /** `document.referrer` when it names another host than the page (foreignReferrer), else null. */
  externalReferrer: string | null;
}

/**
 * `document.referrer` when its host differs from the page's (`location.hostname`), else null: an empty or unparsable
 * referrer, or one of the site itself, is not sent (docs/protocol.md "Referrer").
 */
export function foreignReferrer(referrer: string, pageHost: string): string | null {
  try {
    return new URL(referrer).hostname !== pageHost ? referrer : null;
  } catch {
    return null;
  }
}

/** The analytics component's endpoint (protocol section 3). */
export function streamUrl(base: string): string {
  return `${base}index.php?option=com_jrealtimeanalytics&format=json`;
}

/**
 * Body of stream.display, field for field as the original stream script's data object after
 * jQuery's `$.ajax` dropped its undefined values: the first call carries `initialize=true` and the
 * window size; later calls have NO `initialize` field (PHP casts the string "false" to true), and
 * `windowsver` comes after them once it is known. A page view's call (`initialize`) ends with
 * `referrer` when the visitor came from another host (our addition): with no foreign referrer the
 * body is byte for byte the original's, with one it is the original's plus `&referrer=...`.
 */
export function heartbeatBody(initialize: boolean, page: PageFacts): string {
  const fields: Array<[string, string | number]> = [
    ['task', 'stream.display'],
    ['nowpage', page.href],
  ];
  if (initialize) fields.push(['initialize', 'true']);
  fields.push(['module_available', page.moduleAvailable]);
  if (initialize) fields.push(['device_width', page.outerWidth], ['device_height', page.outerHeight]);
  if (page.windowsVersion) fields.push(['windowsver', page.windowsVersion]);
  if (initialize && page.externalReferrer) fields.push(['referrer', page.externalReferrer]);
  return encodeForm(fields);
}

/** The heatmap click endpoint: the task travels in the query string, as the original sends it. */
export function clickUrl(base: string): string {
  return `${base}index.php?option=com_jrealtimeanalytics&task=stream.saveEntity&format=json`;
}

/** Body of stream.saveEntity for one heatmap click, fields in the original's order (protocol section 4). */
export function clickBody(selector: string, href: string): string {
  return encodeForm([
    ['resource', 'heatmapclick'],
    ['clicked_element', selector],
    ['nowpage', href],
  ]);
}
