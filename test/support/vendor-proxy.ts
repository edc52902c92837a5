import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Reply } from './server';

/**
 * The vendors' hosts, answered by the test itself: an HTTP proxy the engines are pointed at
 * (`launchEngine(name, { proxy })`, `launch({ proxy })`), so a page can carry the vendors' snippets
 * verbatim (`https://www.googletagmanager.com/gtag/js?id=...`, a YouTube `<iframe src>`) and a test
 * counts every request that reaches a vendor host, per engine. Nothing leaves the machine: a
 * CONNECT to any host is answered by a local TLS server with a throwaway self-signed certificate
 * (the engines are told to ignore certificate errors; no trust store is touched), and a plain
 * `http://` request to a vendor host is answered the same way. Loopback targets (the test server,
 * should an engine send it through the proxy) are passed on unchanged and not recorded.
 */

/** One request that reached a vendor host. */
export interface VendorRequest {
  /** The host the page asked for, without port (`www.googletagmanager.com`). */
  host: string;
  /** Path and query, as requested (`/gtag/js?id=G-TEST123`). */
  path: string;
  method: string;
  /** `https` through a CONNECT tunnel, `http` as an absolute-URI proxy request. */
  scheme: 'https' | 'http';
  /** What the engine says the response is for (Sec-Fetch-Dest: `script`, `iframe`, ...); null where it sends none. */
  dest: string | null;
  /** All request headers (Referer, Origin, Accept, the other Sec-Fetch-*), as the engine sent them. */
  headers: IncomingMessage['headers'];
  /** Arrival time (ms since the epoch). */
  at: number;
}

/** Which requests a handler answers: a host (`www.youtube.com`), a host and path prefix (`connect.facebook.net/en_US/`), a pattern on `host + path`, or a test. */
export type VendorMatcher = string | RegExp | ((request: VendorRequest) => boolean);

/** Decide a reply (the test server's `Reply`: status, headers, body, delay; 'reset'; 'hang'); undefined for the default. */
export type VendorHandler = (request: VendorRequest) => Reply | undefined | Promise<Reply | undefined>;

/** The vendor proxy of a test file (`startVendorProxy()`). */
export interface VendorProxy {
  /** `http://127.0.0.1:<port>`, for the engines' proxy settings. */
  proxyUrl: string;
  /** Every vendor request since the start or the last `reset()`, in arrival order. */
  requests: VendorRequest[];
  /** The browsers' own background requests (BROWSER_SERVICES), apart from `requests`. */
  browserRequests: VendorRequest[];
  /** Requests and tunnels to loopback passed on unchanged: 0 while the engine keeps loopback direct, as the adapters set it up. */
  readonly loopback: number;
  /** The requests a matcher selects. */
  matching(matcher: VendorMatcher): VendorRequest[];
  /** Wait until `count` requests match (an async script is fetched after the load event may have fired). */
  waitFor(matcher: VendorMatcher, count?: number, timeoutMs?: number): Promise<VendorRequest[]>;
  /**
   * Answer matching requests yourself (later registrations are asked first). Resolves a function
   * that removes the handler: a test's own override ends with it, `onTestFinished(vendors.on(...))`.
   */
  on(matcher: VendorMatcher, handler: VendorHandler): () => void;
  /** Forget the recorded requests (between tests); the handlers stay. */
  reset(): void;
  close(): Promise<void>;
}

declare global {
  interface Window {
    /** `host + path` of every vendor script that ran (the proxy's default script answer). */
    __vendorRuns?: string[];
    /** `host + path` of every vendor document loaded in a frame (VENDOR_EMBEDS_SCRIPT). */
    __vendorEmbeds?: string[];
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * The browsers' own background requests (seen here once a proxy carries them; without one they
 * fail on DNS unseen): not the page's, so kept apart in `browserRequests` and answered 404.
 * None is a host a vendor snippet loads from.
 */
export const BROWSER_SERVICES: VendorMatcher[] = [
  // Chromium: component updater (despite --disable-component-update) and its signed-in-accounts check
  'update.googleapis.com',
  (r) => r.host === 'accounts.google.com' && r.path.startsWith('/ListAccounts?') && r.path.includes('source=ChromiumBrowser'),
  // Firefox ESR: remote settings polling
  'firefox.settings.services.mozilla.com',
];
/** Long enough for a test run, short enough that a stray copy of the key is worthless. */
const CERT_DAYS = 2;

/** A throwaway key and self-signed certificate from Debian's openssl, made in (and removed with) a temp folder. */
async function throwawayCertificate(): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'pagepulse-vendor-proxy-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    // P-256 rather than RSA: made in milliseconds. The name is for the record only: the engines ignore it
    // prettier-ignore
    const args = [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', key, '-out', cert, '-days', String(CERT_DAYS), '-subj', '/CN=PagePulse test vendor hosts',
    ];
    await promisify(execFile)('openssl', args).catch((error: Error) => {
      throw new Error(`vendor proxy: openssl could not make a certificate (apt-get install openssl): ${error.message}`);
    });
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function matches(matcher: VendorMatcher, r: VendorRequest): boolean {
  if (typeof matcher === 'function') return matcher(r);
  if (matcher instanceof RegExp) return matcher.test(r.host + r.path);
  return matcher.includes('/') ? (r.host + r.path).startsWith(matcher) : r.host === matcher;
}

/** A string as a JavaScript literal that is also safe inside an HTML `<script>`. */
const literal = (text: string): string => JSON.stringify(text).replace(/</g, '\\u003c');

/**
 * First-party cookies the real scripts set as soon as they run (their names and value shapes),
 * so a consent test sees a vendor that ran the way a site owner would: in the cookie jar.
 */
const SCRIPT_COOKIES: Array<{ path: RegExp; cookie: string }> = [
  // Meta pixel: _fbp = fb.<subdomain index>.<creation ms>.<random>, 90 days
  {
    path: /\/fbevents\.js$/,
    cookie:
      "'_fbp=fb.1.' + Date.now() + '.' + Math.floor(Math.random() * 2147483647) + '; path=/; max-age=7776000; SameSite=Lax'",
  },
  // gtag.js (GA4): _ga = GA1.1.<random>.<creation s>, two years
  {
    path: /^\/gtag\/js/,
    cookie:
      "'_ga=GA1.1.' + Math.floor(Math.random() * 2147483647) + '.' + Math.floor(Date.now() / 1000) + '; path=/; max-age=63072000; SameSite=Lax'",
  },
];

/**
 * The default answers: harmless, and observable from the page. A script records that it ran in
 * `window.__vendorRuns` (`host + path`) and sets its vendor's cookie (SCRIPT_COOKIES); a document
 * (an embed's iframe) is a tiny page that posts `{ vendorEmbed: host + path }` to its parent
 * (collect it with VENDOR_EMBEDS_SCRIPT); an image is a 1x1 GIF; anything else (beacons, fetches) 204.
 * The kind comes from Sec-Fetch-Dest, else from the Accept header.
 */
export function defaultVendorReply(r: VendorRequest): Reply {
  const accept = String(r.headers.accept ?? '');
  const dest = r.dest ?? (accept.startsWith('text/html') ? 'document' : accept.startsWith('image/') ? 'image' : 'script');
  const name = literal(r.host + r.path);
  if (dest === 'script') {
    const pathname = r.path.split('?')[0]!;
    const cookies = SCRIPT_COOKIES.filter((c) => c.path.test(pathname)).map((c) => `document.cookie = ${c.cookie};`);
    return {
      headers: { 'content-type': 'text/javascript; charset=utf-8' },
      body: [`(window.__vendorRuns = window.__vendorRuns || []).push(${name});`, ...cookies].join('\n'),
    };
  }
  if (['document', 'iframe', 'frame', 'embed', 'object'].includes(dest)) {
    return {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><meta charset="utf-8"><title>vendor embed</title><p>vendor embed</p><script>parent.postMessage({ vendorEmbed: ${name} }, '*');</script>`,
    };
  }
  if (dest === 'image')
    return { headers: { 'content-type': 'image/gif' }, body: Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAACAA==', 'base64') };
  return { status: 204 };
}

/**
 * A page script that collects the embeds' load messages in `window.__vendorEmbeds` (`host + path`
 * of every vendor document that loaded in a frame): put it into the page's head.
 */
export const VENDOR_EMBEDS_SCRIPT = `window.__vendorEmbeds = [];
window.addEventListener('message', function (event) {
  if (event.data && typeof event.data.vendorEmbed === 'string') window.__vendorEmbeds.push(event.data.vendorEmbed);
});`;

/** Start the vendor proxy on 127.0.0.1 with a free port. */
export async function startVendorProxy(): Promise<VendorProxy> {
  const requests: VendorRequest[] = [];
  const browserRequests: VendorRequest[] = [];
  const handlers: Array<{ matcher: VendorMatcher; handler: VendorHandler }> = [];
  const sockets = new Set<Socket>();
  let loopback = 0;
  const waiters = new Set<() => void>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };

  async function answer(req: IncomingMessage, res: ServerResponse, scheme: 'https' | 'http', target: URL): Promise<void> {
    const record: VendorRequest = {
      host: target.hostname,
      path: target.pathname + target.search,
      method: req.method ?? 'GET',
      scheme,
      dest: (req.headers['sec-fetch-dest'] as string | undefined) ?? null,
      headers: req.headers,
      at: Date.now(),
    };
    req.resume(); // a POST body (a beacon) is not needed, only drained
    if (BROWSER_SERVICES.some((matcher) => matches(matcher, record))) {
      browserRequests.push(record);
      res.writeHead(404, { 'cache-control': 'no-store' });
      return void res.end();
    }
    requests.push(record);
    for (const wake of [...waiters]) wake();
    let reply: Reply | undefined;
    for (const { matcher, handler } of [...handlers].reverse()) {
      if (matches(matcher, record) && (reply = await handler(record)) !== undefined) break;
    }
    reply ??= defaultVendorReply(record);
    if (reply === 'reset') return void res.socket?.destroy();
    if (reply === 'hang') return; // never answers; the page's own timeout must act
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.socket?.destroyed) return;
    const body = typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body ?? '');
    res.writeHead(reply.status ?? 200, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...reply.headers,
    });
    res.end(reply.status === 204 ? undefined : body);
  }
  const fail = (res: ServerResponse) => (error: unknown) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(error));
  };

  // the vendors' HTTPS side: tunnels are handed to it after their CONNECT was answered
  const tls = createTlsServer(await throwawayCertificate(), (req, res) => {
    const target = new URL(req.url ?? '/', `https://${req.headers.host ?? 'unknown.invalid'}`);
    answer(req, res, 'https', target).catch(fail(res));
  });
  tls.on('secureConnection', track);
  // an engine that gives up on the certificate (a missing ignore flag) must not crash the test process
  tls.on('tlsClientError', (_error, socket) => socket.destroy());

  const proxy = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return void res.end('vendor proxy: send absolute-URI proxy requests or CONNECT');
    }
    if (!LOOPBACK.has(target.hostname)) return void answer(req, res, 'http', target).catch(fail(res));
    // the test server: forward unchanged
    loopback++;
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    const upstream = request(
      { host: target.hostname, port: target.port || 80, method: req.method, path: target.pathname + target.search, headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.on('connection', track);
  proxy.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const [host = '', port = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    if (LOOPBACK.has(host)) {
      loopback++;
      const upstream = connect(Number(port), host.replace(/^\[|\]$/g, ''), () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      track(upstream);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
      return;
    }
    socket.on('error', () => socket.destroy()); // a tab closed mid-request: nothing to report
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    tls.emit('connection', socket);
  });

  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const matching = (matcher: VendorMatcher) => requests.filter((r) => matches(matcher, r));
  return {
    proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    requests,
    browserRequests,
    get loopback() {
      return loopback;
    },
    matching,
    waitFor(matcher, count = 1, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = matching(matcher);
          if (found.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`vendor proxy: timed out waiting for ${count} x ${String(matcher)}; got ${matching(matcher).length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    on(matcher, handler) {
      const entry = { matcher, handler };
      handlers.push(entry);
      return () => {
        const at = handlers.indexOf(entry);
        if (at >= 0) handlers.splice(at, 1);
      };
    },
    reset() {
      requests.splice(0);
      browserRequests.splice(0);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      tls.close();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}
