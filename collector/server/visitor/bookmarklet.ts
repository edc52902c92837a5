/**
 * The QA bookmarklet: loads the bundle from `origin` into any page, with debug on, unless the page
 * already runs PagePulse. The bundle then talks to the page's OWN components (its
 * jrealtimeBaseURI / Joomla paths), as it would when a site admin installed it: a live Joomla site
 * is tested against its real server. Only the heatmap overlay reads from this collector (its click counts,
 * public and open to any origin), found from the script's own address. The demo page carries the same
 * code with the origin `''`, which its site.js replaces at load time.
 */
export function bookmarklet(origin: string): string {
  return (
    "javascript:(function(o){if(window.PagePulse)return;var s=document.createElement('script');" +
    "s.src=o+'/dist/pagepulse.iife.js';s.setAttribute('data-debug','1');" +
    `document.body.appendChild(s);})('${origin}')`
  );
}
