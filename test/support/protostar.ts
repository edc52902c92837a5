import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The home page of the real Joomla 3.9.12 site the real-server answers were recorded on, as Joomla
 * rendered it (protostar; the analytics component's system plugin and module published), from the
 * shared fixtures beside the checkout (`../shared/fixtures/real-server/`, README there).
 */
export const PROTOSTAR_HOME = readFileSync(
  fileURLToPath(new URL('../../../shared/fixtures/real-server/joomla-3.9-protostar-home.html', import.meta.url)),
  'utf8',
);

/** The site address the recording put in place of the real one. */
export const PROTOSTAR_SITE = 'https://www.example.org/';

/** Replace exactly what is there, or fail: a changed fixture must turn the tests red, not pass them silently. */
function edit(html: string, pattern: RegExp, to: string | ((match: string) => string), what: string): string {
  if (!pattern.test(html)) throw new Error(`protostar fixture: ${what} not found`);
  return html.replace(pattern, to as string);
}

/**
 * The protostar home page as the recording server serves it, its template markup (menu,
 * breadcrumb, the module's badges) untouched:
 * - the site address is the server's (`<base href>`, links, `jrealtimeBaseURI`);
 * - the `<script src>` elements are taken out: Joomla's media (jQuery, Bootstrap, core.js,
 *   caption.js) and the component's own `stream.js`/`heatmap.js` are not on this server (a test
 *   that needs jQuery 1.12.4 or a stand-in of the component's client adds it through `head`);
 * - so the inline script keeps only what the component's plugin declares (`jrealtimeBaseURI`,
 *   the network-error text), without its JCaption and tooltip calls (Joomla's media);
 * - the Google Fonts stylesheet is taken out (no network here); the site's own stylesheets stay
 *   (this server answers them 404, so the page is unstyled);
 * - `module: false` takes the module's `id="jes_mod"` away (a page without the module);
 * - `head` goes last into the head, `body` last into the body (the bundle's tag, say).
 */
export function protostarPage(origin: string, options: { head?: string; body?: string; module?: boolean } = {}): string {
  let html = PROTOSTAR_HOME.split(PROTOSTAR_SITE).join(`${origin}/`);
  html = edit(html, /\t<link href="https:\/\/fonts\.googleapis\.com[^>]*>\n/, '', 'the Google Fonts stylesheet');
  html = edit(html, /\t<script src="[^"]*"( defer)?><\/script>\n/g, '', 'the script elements');
  html = edit(
    html,
    /<script>\s*var COM_JREALTIME_NETWORK_ERROR = [\s\S]*?<\/script>/,
    (block) => `<script>${/var COM_JREALTIME_NETWORK_ERROR = '[^']*';\s*var jrealtimeBaseURI='[^']*';/.exec(block)![0]}</script>`,
    "the plugin's inline script",
  );
  if (options.module === false) html = edit(html, /<div id="jes_mod">/, '<div>', 'the module');
  html = edit(html, /<\/head>/, `${options.head ?? ''}</head>`, '</head>');
  return edit(html, /<\/body>/, `${options.body ?? ''}</body>`, '</body>');
}
