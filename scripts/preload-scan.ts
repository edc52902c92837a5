// `npx tsx scripts/preload-scan.ts [chromium|firefox|webkit ...]`: what no script in the page can
// stop, per engine. A head script installs a MutationObserver that neuters Google's verbatim gtag
// tag (type="text/plain", src removed) and a YouTube iframe (src moved to data-src) as the parser
// inserts them; the vendor proxy counts what reached the vendors' hosts anyway. The observer runs
// inline (the best case) or from a synchronous external script first in head, as a consent tag
// is installed (the parser waits for it while the engine's preload scanner reads ahead). A page
// without the observer is the control. Prints a table (README: "What no script can stop").
import { launchEngine } from '../test/support/engines';
import { ENGINES } from '../test/support/engines/types';
import { startServer } from '../test/support/server';
import { startVendorProxy, VENDOR_EMBEDS_SCRIPT } from '../test/support/vendor-proxy';
import { GTAG } from '../test/support/vendor-snippets';

/** Loads per engine and variant: the preload scanner's reach may depend on how the bytes arrive. */
const RUNS = Number(process.env.PRELOAD_RUNS ?? 5);
/** After the load event: time for a straggling request to reach the proxy. */
const GRACE_MS = 500;

const OBSERVER = `new MutationObserver(function (records) {
  records.forEach(function (record) {
    record.addedNodes.forEach(function (node) {
      if (node.nodeName === 'SCRIPT' && /googletagmanager/.test(node.src)) {
        node.type = 'text/plain';
        node.removeAttribute('src');
      }
      if (node.nodeName === 'IFRAME' && /youtube/.test(node.src)) {
        node.setAttribute('data-src', node.src);
        node.removeAttribute('src');
      }
    });
  });
}).observe(document.documentElement, { childList: true, subtree: true });`;

const VARIANTS = {
  'no observer (control)': '',
  'observer inline in head': `<script>${OBSERVER}</script>`,
  'observer in a sync <script src> first in head': '<script src="/observer.js"></script>',
} as const;

/** A page of one variant; its own tag ID and video ID, so a request from an earlier page is never counted for it. */
const page = (observer: string, id: string) => `<!doctype html>
<html lang="de">
<head><meta charset="utf-8"><title>Preload scan</title>
${observer}
<script>${VENDOR_EMBEDS_SCRIPT}</script>
${GTAG.replaceAll('G-TEST123', `G-${id}`)}
</head>
<body>
<p>Text</p>
<iframe width="560" height="315" src="https://www.youtube.com/embed/${id}" title="Film"></iframe>
</body>
</html>`;

const only = process.argv.slice(2);
const engines = ENGINES.filter((name) => only.length === 0 || only.includes(name));
const server = await startServer();
const proxy = await startVendorProxy();
server.file('/observer.js', OBSERVER, 'text/javascript');
const rows: string[][] = [];
try {
  for (const name of engines) {
    const engine = await launchEngine(name, { proxy: proxy.proxyUrl });
    try {
      for (const [index, [label, observer]] of Object.entries(VARIANTS).entries()) {
        const id = `${name.toUpperCase()}${index}`;
        const path = `/${id}.html`;
        server.page(path, page(observer, id));
        const sum = { gtagRequests: 0, gtagRan: 0, youtubeRequests: 0, youtubeLoaded: 0 };
        for (let run = 0; run < RUNS; run++) {
          proxy.reset();
          const tab = await engine.newPage(server.origin);
          await tab.goto(`${server.origin}${path}`);
          await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
          const seen = await tab.evaluate(() => ({ runs: window.__vendorRuns ?? [], embeds: window.__vendorEmbeds ?? [] }));
          await tab.close();
          const gtag = `www.googletagmanager.com/gtag/js?id=G-${id}`;
          const youtube = `www.youtube.com/embed/${id}`;
          sum.gtagRequests += proxy.matching(gtag).length;
          sum.gtagRan += seen.runs.filter((r) => r === gtag).length;
          sum.youtubeRequests += proxy.matching(youtube).length;
          sum.youtubeLoaded += seen.embeds.filter((r) => r === youtube).length;
        }
        rows.push([name, label, ...Object.values(sum).map((n) => `${n}/${RUNS}`)]);
        console.error(rows.at(-1)!.join(' | '));
      }
    } finally {
      await engine.close();
    }
  }
} finally {
  await proxy.close();
  await server.close();
}
const head = ['engine', 'page', 'gtag.js requests', 'gtag.js ran', 'YouTube requests', 'YouTube loaded'];
console.log([head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n'));
