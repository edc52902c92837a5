import type { InsertionWatch } from '../platform/watch';

/**
 * The component clients PagePulse replaces (docs/protocol.md#5c): the analytics component's
 * `stream.js` and `heatmap.js` (its system plugin puts them into the head, `defer`), and com_gdpr's
 * consent client (its system plugin's `cookieconsent.min.js` and `init.js`). Their inline globals (`jrealtimeBaseURI`,
 * `gdprConfigurationOptions`) are configuration and stay.
 */
const ORIGINALS = {
  tracker: /\/com_jrealtimeanalytics\/js\/(stream|heatmap)(\.min)?\.js/,
  consent: /\/plugins\/system\/gdpr\/assets\/js\/(cookieconsent\.min|init)\.js/,
} as const;

/** Which original client is already on the page and will run (or ran): PagePulse then yields that part. */
export type Originals = Record<keyof typeof ORIGINALS, string | null>;

/**
 * Keep the originals of the parts PagePulse runs (`ours`) from running when they come after the
 * tag: each is made inert (`type="text/plain"`, `src` kept as `data-src`) before the parser runs
 * it. Those already on the page when the bundle starts cannot be stopped any more (the parser
 * prepared them): they are returned by file name, so that the bundle does not run a second client.
 */
export function supersedeOriginals(watch: InsertionWatch, ours: Record<keyof typeof ORIGINALS, boolean>): Originals {
  const live: Originals = { tracker: null, consent: null };
  watch.add('script[src]', (script, existing) => {
    const src = script.getAttribute('src')!;
    for (const kind of ['tracker', 'consent'] as const) {
      if (!ORIGINALS[kind].test(src)) continue;
      if (existing) {
        if (script.getAttribute('type') !== 'text/plain') live[kind] ??= src.split('/').pop()!.split('?')[0]!;
      } else if (ours[kind] && !live[kind]) {
        script.setAttribute('type', 'text/plain');
        script.setAttribute('data-src', src);
        script.removeAttribute('src');
      }
    }
  });
  return live;
}
