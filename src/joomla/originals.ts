import type { InsertionWatch } from '../platform/watch';

/**
 * The component clients PagePulse replaces (docs/protocol.md#5c): the analytics component's
 * `stream.js` and `heatmap.js` (its system plugin puts them into the head, `defer`: group 1), and
 * com_gdpr's consent client (its system plugin's `cookieconsent.min.js` and `init.js`: group 2).
 * Their inline globals (`jrealtimeBaseURI`, `gdprConfigurationOptions`) are configuration and stay.
 */
const ORIGINAL = /(com_jrealtimeanalytics\/js\/(?:stream|heatmap))|(system\/gdpr\/assets\/js\/(?:cookieconsent|init))/;

/** Which original client is already on the page and will run (or ran), by file: PagePulse then yields that part. */
export interface Originals {
  tracker?: string;
  consent?: string;
}

/**
 * Keep the originals of the parts PagePulse runs (`ours`) from running when they come after the
 * tag: each is made inert (`type="text/plain"`, `src` kept as `data-src`) before the parser runs
 * it. Those already on the page when the bundle starts cannot be stopped any more (the parser
 * prepared them): they are returned by file name, so that the bundle does not run a second client.
 */
export function supersedeOriginals(watch: InsertionWatch, ours: Required<Record<keyof Originals, boolean>>): Originals {
  const live: Originals = {};
  watch.add('script[src]', (script, existing) => {
    const match = ORIGINAL.exec(script.getAttribute('src')!);
    if (!match) return;
    const kind = match[1] ? 'tracker' : 'consent';
    if (existing) {
      if (script.getAttribute('type') !== 'text/plain') live[kind] ??= (match[1] ?? match[2])!.split('/').pop() + '.js';
    } else if (ours[kind] && !live[kind]) {
      script.setAttribute('data-src', script.getAttribute('src')!);
      script.setAttribute('type', 'text/plain');
      script.removeAttribute('src');
    }
  });
  return live;
}
