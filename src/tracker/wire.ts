import { encodeForm } from '../platform/encode';

/** What the heartbeat reports about the page it runs on. */
export interface PageFacts {
  /** location.href at send time. */
  href: string;
  /** Number of statistics modules (`#jes_mod`) on the page. */
  modules: number;
  /** window.outerWidth / outerHeight. */
  outerWidth: number;
  outerHeight: number;
}

/** The analytics component's endpoint (protocol section 3). */
export function streamUrl(base: string): string {
  return `${base}index.php?option=com_jrealtimeanalytics&format=json`;
}

/**
 * Body of stream.display. The first call carries `initialize=true` and the window size; later
 * calls send `initialize=` EMPTY, because PHP casts the string "false" to true.
 */
export function heartbeatBody(initialize: boolean, page: PageFacts): string {
  const fields: Array<[string, string | number]> = [
    ['task', 'stream.display'],
    ['nowpage', page.href],
    ['initialize', initialize ? 'true' : ''],
    ['module_available', page.modules],
  ];
  if (initialize) fields.push(['device_width', page.outerWidth], ['device_height', page.outerHeight]);
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
