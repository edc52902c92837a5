import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startServer, type TestServer } from '../server';
import { startVendorProxy, type VendorProxy } from '../vendor-proxy';
import { launchChromium } from './chromium';
import { launchFirefox } from './firefox';
import { ENGINES, type Engine, type EngineName, type EnginePage, type LaunchOptions } from './types';
import { launchWebKit } from './webkit';

export type { Engine, EngineName, EnginePage, Key, LaunchOptions } from './types';

/** The engine of this run (PAGEPULSE_ENGINE=chromium|firefox|webkit; npm test runs each in turn). */
export const ENGINE: EngineName = ((): EngineName => {
  const name = process.env.PAGEPULSE_ENGINE ?? 'chromium';
  if (!(ENGINES as readonly string[]).includes(name))
    throw new Error(`PAGEPULSE_ENGINE=${name}: use one of ${ENGINES.join(', ')}`);
  return name as EngineName;
})();

/** Both built bundles, with the short name their fixture paths carry. */
export const BUNDLES = [
  { name: 'react', file: 'pagepulse.iife.js' },
  { name: 'lite', file: 'pagepulse.lite.iife.js' },
] as const;

/** Launch the engine of this run; `proxy` sends every host but loopback through the vendor proxy. */
export function launchEngine(name: EngineName = ENGINE, options: LaunchOptions = {}): Promise<Engine> {
  return name === 'firefox' ? launchFirefox(options) : name === 'webkit' ? launchWebKit(options) : launchChromium(options);
}

/** A page that sets the consent cookies its query names (see `open`). */
const GRANT_PATH = '/__grant.html';

/** What a scenario file shares: the engine, the recording server (with the probe) and page opening. */
export interface EngineSuite {
  readonly engine: Engine;
  readonly server: TestServer;
  /**
   * A fresh page (no cookies or storage) at a path of the server, loaded; with `consent`, the
   * visitor has chosen these categories before (the consent cookies, protocol section 5).
   */
  open(path: string, options?: { consent?: string }): Promise<EnginePage>;
  /** The vendor hosts' stand-in (`useEngine(ready, { vendors: true })`); its records are cleared after each test. */
  readonly vendors: VendorProxy;
}

/**
 * One browser of the run's engine and one recording server per file. After each test its pages
 * are closed (their timers stop, so they cannot skew the next test's requests) and no page error
 * may have been reported by the probe. With `vendors`, the file also gets a vendor proxy
 * (test/support/vendor-proxy.ts) that the engine sends every host but loopback through: pages
 * may carry the vendors' snippets verbatim.
 */
export function useEngine(ready: (server: TestServer) => void = () => {}, options: { vendors?: boolean } = {}): EngineSuite {
  let engine: Engine | undefined;
  let server: TestServer | undefined;
  let vendors: VendorProxy | undefined;
  const pages: EnginePage[] = [];
  const suite: EngineSuite = {
    get engine() {
      return engine!;
    },
    get server() {
      return server!;
    },
    get vendors() {
      if (!options.vendors) throw new Error('no vendor proxy: useEngine(ready, { vendors: true })');
      return vendors!;
    },
    async open(path, options = {}) {
      const page = await engine!.newPage(server!.origin);
      pages.push(page);
      // cookies set by a page of the origin: the same in every engine, no driver cookie API needed
      if (options.consent) await page.goto(`${server!.origin}${GRANT_PATH}?${encodeURIComponent(options.consent)}`);
      await page.goto(`${server!.origin}${path}`);
      return page;
    },
  };
  beforeAll(async () => {
    server = await startServer({ probe: true });
    server.page(GRANT_PATH, `<!doctype html><title>grant</title><script src="${GRANT_PATH}.js"></script>`);
    server.file(
      `${GRANT_PATH}.js`,
      "document.cookie = 'cookieconsent_status=allow; path=/; SameSite=Lax'; document.cookie = 'cookieconsent_categories=' + decodeURIComponent(location.search.slice(1)) + '; path=/; SameSite=Lax';",
      'text/javascript',
    );
    if (options.vendors) vendors = await startVendorProxy();
    engine = await launchEngine(ENGINE, { proxy: vendors?.proxyUrl });
    ready(server);
  });
  afterEach(async () => {
    // one after another: in WebKit every page is the one browser session (engines/webkit.ts)
    for (const page of pages.splice(0)) await page.close().catch(() => undefined);
    vendors?.reset();
    const errors = server!.pageErrors.splice(0);
    expect(errors, 'page errors the probe reported').toEqual([]);
  });
  afterAll(async () => {
    await engine?.close();
    await server?.close();
    await vendors?.close();
  });
  return suite;
}
