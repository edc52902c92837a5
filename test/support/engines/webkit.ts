import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { settle, SETTLE_MAX_MS } from './settle';
import type { Engine, EnginePage, Key, LaunchOptions } from './types';
import { ELEMENT_KEY, newSession, waitForDriver } from './webdriver';

/** Debian's WebKitGTK WebDriver (apt-get install webkit2gtk-driver). */
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
/** Time for Xvfb, the driver and the first MiniBrowser to come up on a loaded 2-core machine. */
const START_TIMEOUT_MS = 30_000;
/** W3C WebDriver key codes of the keys the scenarios press. */
const KEYS = { Tab: '\uE004', Shift: '\uE008', Enter: '\uE007', Escape: '\uE00C' } as const;

/** MiniBrowser, the WebKitGTK test browser the driver starts (it lives in the library's folder). */
export function findMiniBrowser(): string {
  if (process.env.WEBKIT_MINIBROWSER_PATH) return process.env.WEBKIT_MINIBROWSER_PATH;
  for (const triplet of readdirSync('/usr/lib').filter((d) => d.includes('-linux-'))) {
    for (const lib of ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0']) {
      const path = `/usr/lib/${triplet}/${lib}/MiniBrowser`;
      if (existsSync(path)) return path;
    }
  }
  throw new Error('MiniBrowser not found: apt-get install webkit2gtk-driver');
}

/** Start Xvfb on a free display (it picks one and writes its number to fd 3). */
function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not report a display')), START_TIMEOUT_MS);
    xvfb.once('error', (error) => reject(new Error(`Xvfb could not start (apt-get install xvfb): ${error.message}`)));
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve({ display: `:${text.trim()}`, process: xvfb });
      }
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * MiniBrowser's own proxy flags, not the W3C `proxy` capability: WebKitWebDriver turns `sslProxy`
 * into an `https://` proxy URL, so WebKitGTK speaks TLS to the proxy itself (a ClientHello arrives
 * where a CONNECT should) and no HTTPS request gets through. `--proxy` covers both schemes; the
 * ignore-host flag takes one host each. The certificate is the W3C `acceptInsecureCerts`' job.
 */
function proxyArgs(proxy: string): string[] {
  return [`--proxy=${proxy}`, '--ignore-host=localhost', '--ignore-host=127.0.0.1', '--ignore-host=::1'];
}

/**
 * WebKit: WebKitWebDriver (classic WebDriver, no BiDi) drives MiniBrowser, which has no headless
 * mode, so it runs on its own Xvfb display. One browser session for the whole file; a new page
 * clears the cookies and storage of the test origin instead of starting a new browser (a second
 * per page). Page errors come from the server-injected probe (engines/probe.ts).
 */
export async function launchWebKit(options: LaunchOptions = {}): Promise<Engine> {
  const children: ChildProcess[] = [];
  const killAll = (): void => {
    for (const child of children.reverse()) child.kill('SIGTERM');
  };
  process.once('exit', killAll);
  try {
    const xvfb = await startXvfb();
    children.push(xvfb.process);
    const port = await freePort();
    const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: xvfb.display } });
    children.push(driver);
    const base = `http://127.0.0.1:${port}`;
    await waitForDriver(base, START_TIMEOUT_MS);
    const session = await newSession(base, {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: findMiniBrowser(),
        args: ['--automation', ...(options.proxy ? proxyArgs(options.proxy) : [])],
      },
      ...(options.proxy && { acceptInsecureCerts: true }),
    });
    const run = <R>(script: string, args: unknown[]): Promise<R> => session.command<R>('POST', '/execute/sync', { script, args });
    const evaluate = async <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> => {
      // execute/async: the function may return a promise; errors come back as values to rethrow here
      const script = `var done = arguments[arguments.length - 1], arg = arguments[0];
Promise.resolve().then(function () { return (${fn.toString()})(arg); }).then(
  function (value) { done({ value: value === undefined ? null : value }); },
  function (error) { done({ error: String(error && error.stack || error) }); });`;
      const result = await session.command<{ value?: R; error?: string }>('POST', '/execute/async', {
        script,
        args: [arg ?? null],
      });
      if (result.error) throw new Error(`in the page: ${result.error}`);
      return result.value as R;
    };
    const keys = async (actions: Array<{ type: 'keyDown' | 'keyUp'; value: string }>): Promise<void> => {
      await session.command('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
      await session.command('DELETE', '/actions');
    };
    return {
      name: 'webkit',
      async newPage(origin) {
        await session.command('POST', '/url', { url: `${origin}/__blank` });
        await session.command('DELETE', '/cookie');
        await run('localStorage.clear(); sessionStorage.clear();', []);
        const page: EnginePage = {
          goto: async (url) => void (await session.command('POST', '/url', { url })),
          reload: async () => void (await session.command('POST', '/refresh')),
          evaluate,
          async click(selector, host) {
            await evaluate(settle, { selector, host: host ?? '', maxMs: SETTLE_MAX_MS });
            const element = await run<Record<string, string> | null>(
              'var root = arguments[1] ? document.querySelector(arguments[1]).shadowRoot : document; return root.querySelector(arguments[0]);',
              [selector, host ?? ''],
            );
            if (!element) throw new Error(`no element ${host ?? ''} ${selector}`);
            await session.command('POST', `/element/${element[ELEMENT_KEY]}/click`);
          },
          press(key: Key) {
            if (key === 'Shift+Tab') {
              return keys([
                { type: 'keyDown', value: KEYS.Shift },
                { type: 'keyDown', value: KEYS.Tab },
                { type: 'keyUp', value: KEYS.Tab },
                { type: 'keyUp', value: KEYS.Shift },
              ]);
            }
            return keys([
              { type: 'keyDown', value: KEYS[key] },
              { type: 'keyUp', value: KEYS[key] },
            ]);
          },
          cookies: async () =>
            Object.fromEntries(
              (await session.command<Array<{ name: string; value: string }>>('GET', '/cookie')).map((c) => [c.name, c.value]),
            ),
          close: async () => void (await session.command('POST', '/url', { url: 'about:blank' })),
        };
        return page;
      },
      async close() {
        await session.quit().catch(() => undefined);
        killAll();
        process.removeListener('exit', killAll);
      },
    };
  } catch (error) {
    killAll();
    throw error;
  }
}
