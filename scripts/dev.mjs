// `npm run dev`: both bundles rebuilt on every change (vite build --watch, React and lite), the
// collector and demo site run under `tsx watch` (restarted when its code changes), and a small dev
// front on HOST:PORT that forwards everything to the collector and adds a reload script to each
// HTML page: the page reloads after each rebuild and when a file under demo/ changes.
// Nothing of this is in the bundle or the collector: the production paths stay as `npm start` runs them.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOST = process.env.HOST ?? '127.0.0.1';
const PORT = Number(process.env.PORT ?? 5173);
/** Where the collector listens behind the dev front. */
const INNER_PORT = Number(process.env.PAGEPULSE_DEV_INNER_PORT ?? PORT + 1);
/** The dev front's own addresses; no route of the protocol or the demo starts like this. */
const DEV_PATH = '/__pagepulse_dev/';
/** Both builds and a burst of file saves end within this window: one reload, not three. */
const RELOAD_DEBOUNCE_MS = 150;
const RELOAD_SCRIPT = `new EventSource('${DEV_PATH}events').addEventListener('reload', () => location.reload());\n`;

const clients = new Set();
let reloadTimer = null;
function reloadPages(why) {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => {
    console.log(`dev: reload (${why}), ${clients.size} page(s)`);
    for (const client of clients) client.write('event: reload\ndata: \n\n');
  }, RELOAD_DEBOUNCE_MS);
}

// 1. both bundles and the heatmap overlay, rebuilt on change; the page reloads once every build of a change is done
const watchers = [];
const building = new Set();
for (const [mode, configFile] of [
  ['production', undefined],
  ['lite', undefined],
  ['lite-debug', undefined],
  ['heatmap', 'vite.heatmap.config.ts'],
]) {
  const watcher = await build({ root: ROOT, mode, configFile, logLevel: 'warn', build: { watch: {} } });
  // Vite logs build errors itself; a failed build leaves the last good bundle in dist/
  watcher.on('event', (event) => {
    if (event.code === 'START') building.add(mode);
    if (event.code !== 'END' && event.code !== 'ERROR') return;
    building.delete(mode);
    if (event.code === 'END' && building.size === 0) reloadPages('bundles rebuilt');
  });
  watchers.push(watcher);
}

// 2. the collector and demo site, restarted when its code changes
const collector = spawn(
  process.execPath,
  [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'collector/server/main.ts'],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(INNER_PORT) },
  },
);

// 3. the demo's pages and assets: reload when they change (the collector serves them from disk)
const demoWatcher = watch(join(ROOT, 'demo'), { recursive: true }, (_event, file) => {
  if (file && !String(file).startsWith(`server${sep}`)) reloadPages(`demo/${file}`);
});

// 4. the dev front
const front = createServer((req, res) => {
  if (req.url === `${DEV_PATH}reload.js`) {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    res.end(RELOAD_SCRIPT);
    return;
  }
  if (req.url === `${DEV_PATH}events`) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': connected\n\n');
    clients.add(res);
    req.on('close', () => clients.delete(res));
    return;
  }
  const upstream = forward(
    { host: '127.0.0.1', port: INNER_PORT, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      const html = String(answer.headers['content-type'] ?? '').startsWith('text/html') && !answer.headers['content-encoding'];
      if (!html) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const page = Buffer.concat(chunks).toString('utf8');
        const tag = `<script src="${DEV_PATH}reload.js"></script>`;
        const at = page.lastIndexOf('</body>');
        const body = at < 0 ? page + tag : page.slice(0, at) + tag + page.slice(at);
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
        res.writeHead(answer.statusCode ?? 200, headers);
        res.end(body);
      });
    },
  );
  upstream.on('error', (error) => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`dev: the collector is not answering yet (${error.message}); it restarts after a change, try again`);
  });
  req.pipe(upstream);
});
front.listen(PORT, HOST, () => console.log(`dev: open http://${HOST}:${PORT}/ (collector behind it on port ${INNER_PORT})`));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    demoWatcher.close();
    for (const client of clients) client.end();
    front.close();
    collector.kill('SIGTERM');
    Promise.all(watchers.map((w) => w.close())).finally(() => process.exit(0));
  });
}
