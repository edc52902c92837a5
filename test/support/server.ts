import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE } from './browser';
import { PROBE_PATH, PROBE_REPORT_PATH, PROBE_SCRIPT } from './engines/probe';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One request as it arrived on the wire. */
export interface Recorded {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  /** Raw body, exactly as sent. */
  body: string;
  /** `option` and `task` (from the query or the form body), for filtering. */
  option: string | null;
  task: string | null;
  at: number;
}

/** Answer a request: status, headers and body; or 'reset' to destroy the socket. */
export type Reply =
  { status?: number; headers?: Record<string, string>; body?: string | object; delayMs?: number } | 'reset' | 'hang';

/** Decide a reply for a recorded request; return undefined for the default. */
export type Handler = (request: Recorded, index: number) => Reply | undefined | Promise<Reply | undefined>;

/** The recording test server: fixture pages, the built bundle and scripted endpoint answers. */
export interface TestServer {
  origin: string;
  /** The endpoint's requests (`index.php`), recorded whole. */
  requests: Recorded[];
  /** Every request the server received, of any path and host name, as `host/path?query`. */
  hits: string[];
  /** Page errors the probe reported (`startServer({ probe: true })`), as `path text`. */
  pageErrors: string[];
  /** Serve HTML at a path, with extra response headers (a Content-Security-Policy, say). */
  page(path: string, html: string, headers?: Record<string, string>): void;
  /** Serve any file content at a path. */
  file(path: string, body: string, type: string): void;
  /** Script the answers of one task (`stream.display`, `stream.saveEntity`, `com_ajax`, ...). */
  on(task: string, handler: Handler): void;
  /** Requests of one task. */
  calls(task: string): Recorded[];
  /** Wait until `count` requests of a task arrived. */
  waitFor(task: string, count?: number, timeoutMs?: number): Promise<Recorded[]>;
  close(): Promise<void>;
}

/** One exchange of the real component server, recorded verbatim (`../shared/fixtures/real-server/`). */
export interface RealExchange {
  request: { method: string; url: string; body: string };
  answer: { status: number; contentType: string | null; body: string | null };
  note?: string;
}

/**
 * The answers a real Joomla 3.9.12 + com_jrealtimeanalytics 3.4.6 server gave its own jQuery
 * client, verbatim (README beside the file). Read from the shared fixtures beside the checkout.
 */
export const REAL_SERVER: { source: string; exchanges: Record<string, RealExchange> } = JSON.parse(
  readFileSync(join(ROOT, '../shared/fixtures/real-server/jrealtimeanalytics-3.4.6.json'), 'utf8'),
) as { source: string; exchanges: Record<string, RealExchange> };

/** The recorded exchange of a name; a missing one is a broken fixture, not an empty answer. */
export function realExchange(name: string): RealExchange {
  const exchange = REAL_SERVER.exchanges[name];
  if (!exchange) throw new Error(`no exchange "${name}" in the real-server fixture`);
  return exchange;
}

/** A recorded answer replayed byte for byte (status, content type, body). */
export function realReply(name: string): Reply {
  const { answer } = realExchange(name);
  return {
    status: answer.status,
    body: answer.body ?? '',
    headers: answer.contentType ? { 'content-type': answer.contentType } : {},
  };
}

const RECORDED_CONFIG = (
  JSON.parse(realExchange('first heartbeat (initialize), module not on the page').answer.body!) as {
    configparams: Record<string, unknown>;
  }
).configparams;

/**
 * The component's `configparams` as the real server sends them (all of its keys, every value a
 * string), with the refresh and debug setting the tests run on: a 2 s loop, debug off.
 */
export const COMPONENT_CONFIG: Readonly<Record<string, unknown>> = { ...RECORDED_CONFIG, daemonrefresh: '2', enable_debug: '0' };

/** The module's live counts, as the real server sends them. */
export const COMPONENT_BINDS: Readonly<Record<string, string>> = {
  users_onpage: '1',
  users_total: '1',
  users_logged: '0',
  visitors: '1',
};

/**
 * The analytics component's answer to one heartbeat, shaped like the real server's: the first
 * call of a page view (`initialize=true`) gets `configparams`, and `data-bind` when the module is on
 * the page; a later call gets `{"data-bind":{...}}` with the module, `[]` without it. `configparams`
 * overrides are sent as the component sends them (numbers as strings); `extra` parts are added to
 * every answer (a test's `storing`, `loading` or own `data-bind`).
 */
export function componentAnswer(
  request: Recorded,
  configparams: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Reply {
  const form = new URLSearchParams(request.body);
  const parts: Record<string, unknown> = {};
  if (form.get('initialize') === 'true') {
    const overrides = Object.entries(configparams).map(([key, value]) => [
      key,
      typeof value === 'number' ? String(value) : value,
    ]);
    parts.configparams = { ...COMPONENT_CONFIG, ...Object.fromEntries(overrides) };
  }
  if (form.get('module_available') === '1') parts['data-bind'] = COMPONENT_BINDS;
  Object.assign(parts, extra);
  return { body: Object.keys(parts).length > 0 ? parts : [] };
}

/**
 * Host-page libraries the fixtures load from node_modules (devDependencies), at
 * `/node_modules/<package>/...`: jQuery 1.12.4 + Migrate 1.4.1 (Joomla 3), Bootstrap 3 and 5, UIkit 3.
 */
export const VENDOR = new Set(['jquery', 'jquery-migrate', 'bootstrap', 'bootstrap3', 'uikit']);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.json': 'application/json',
};

/** Put the page-error probe first into a page: after `<head>`, or before `<body>` (implied head). */
function withProbe(html: string): string {
  const tag = `<script src="${PROBE_PATH}"></script>`;
  if (/<head[^>]*>/i.test(html)) return html.replace(/<head[^>]*>/i, (head) => head + tag);
  if (/<body[^>]*>/i.test(html)) return html.replace(/<body[^>]*>/i, (body) => tag + body);
  return tag + html;
}

/**
 * Start the recording server on 127.0.0.1 with a free port; `probe` puts the page-error probe
 * into every page served with `page()` (the engine suites; see engines/probe.ts).
 */
export async function startServer(options: { probe?: boolean } = {}): Promise<TestServer> {
  const pages = new Map<string, { body: string; type: string; headers?: Record<string, string> }>();
  const handlers = new Map<string, Handler>();
  const requests: Recorded[] = [];
  const hits: string[] = [];
  const pageErrors: string[] = [];
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const waiters = new Set<() => void>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    hits.push(`${req.headers.host ?? ''}${req.url ?? '/'}`);
    const url = new URL(req.url ?? '/', 'http://x');
    const form = new URLSearchParams(body);
    const record: Recorded = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
      option: url.searchParams.get('option'),
      task:
        url.searchParams.get('task') ?? form.get('task') ?? (url.searchParams.get('option') === 'com_ajax' ? 'com_ajax' : null),
      at: Date.now(),
    };
    if (url.pathname.endsWith('/index.php') || url.pathname === '/index.php') {
      requests.push(record);
      for (const wake of [...waiters]) wake();
      const task = record.task ?? '';
      const index = counts.get(task) ?? 0;
      counts.set(task, index + 1);
      const reply = (await handlers.get(task)?.(record, index)) ?? defaultReply(record);
      return send(res, reply);
    }
    if (options.probe && url.pathname === PROBE_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      res.end(PROBE_SCRIPT);
      return;
    }
    if (options.probe && url.pathname === PROBE_REPORT_PATH) {
      pageErrors.push(body);
      res.writeHead(204);
      res.end();
      return;
    }
    const fixture = pages.get(url.pathname);
    if (fixture) {
      // no-cache, not no-store: no-store pages are never kept in the back/forward cache
      res.writeHead(200, { 'content-type': fixture.type, 'cache-control': 'no-cache', ...fixture.headers });
      res.end(fixture.body);
      return;
    }
    const vendor = /^\/node_modules\/([^/]+)\//.exec(url.pathname)?.[1];
    if (url.pathname.startsWith('/dist/') || (vendor && VENDOR.has(vendor))) {
      const file = normalize(join(ROOT, url.pathname));
      const dir = join(ROOT, vendor ? `node_modules/${vendor}/` : 'dist/');
      if (!file.startsWith(dir)) return send(res, { status: 403, body: 'forbidden' });
      try {
        const data = await readFile(file);
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(data);
      } catch {
        await send(res, { status: 404, body: 'not found' });
      }
      return;
    }
    await send(res, { status: 404, body: 'not found' });
  }

  async function send(res: ServerResponse, reply: Reply): Promise<void> {
    if (reply === 'reset') {
      res.socket?.destroy();
      return;
    }
    if (reply === 'hang') return; // never answers; the client's timeout must act
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
    const type = typeof reply.body === 'object' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
    if (res.socket?.destroyed) return;
    res.writeHead(reply.status ?? 200, { 'content-type': type, 'cache-control': 'no-store', ...reply.headers });
    res.end(text);
  }

  /** What the real servers answer: the analytics component as recorded, a healthy com_ajax and com_gdpr. */
  function defaultReply(request: Recorded): Reply {
    const task = request.task ?? '';
    if (task === 'stream.display') return componentAnswer(request);
    if (task === 'stream.saveEntity') return { body: [] }; // a stored click, as recorded
    if (task === 'com_ajax') return { body: { success: true, message: null, messages: null, data: [] } };
    if (task === 'user.getCookieCategoryDescription')
      return { body: '<p>Beschreibung</p>', headers: { 'content-type': 'text/html; charset=utf-8' } };
    return { body: { success: true } };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const calls = (task: string): Recorded[] => requests.filter((r) => r.task === task);

  return {
    origin,
    requests,
    hits,
    pageErrors,
    page: (path, html, headers) =>
      pages.set(path, { body: options.probe ? withProbe(html) : html, type: 'text/html; charset=utf-8', headers }),
    file: (path, body, type) => pages.set(path, { body, type }),
    on: (task, handler) => handlers.set(task, handler),
    calls,
    waitFor(task, count = 1, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = calls(task);
          if (found.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${count} x ${task}; got ${calls(task).length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A head script counting the stream answers the tracker has read (`pagepulse:heartbeat`) in
 * `window.__answers`: the click recorder starts on the first one, so a test waits for
 * `__answers > 0` before it clicks instead of sleeping a guessed time after the request.
 */
export const COUNT_ANSWERS_SCRIPT = `window.__answers = 0;
document.addEventListener('pagepulse:heartbeat', function () { window.__answers++; });`;
export const COUNT_ANSWERS = `<script>${COUNT_ANSWERS_SCRIPT}</script>`;

/** A fixture page that loads the built bundle with one script tag, as a site admin would. */
export function fixturePage(
  options: { head?: string; body?: string; attrs?: Record<string, string>; lang?: string; bundle?: string } = {},
): string {
  const attrs = Object.entries(options.attrs ?? {})
    .map(([key, value]) => ` ${key}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  return `<!doctype html>
<html lang="${options.lang ?? 'de'}">
<head><meta charset="utf-8"><title>Fixture</title>${options.head ?? ''}</head>
<body>
${options.body ?? ''}
<script src="/dist/${options.bundle ?? BUNDLE}"${attrs}></script>
</body>
</html>`;
}
