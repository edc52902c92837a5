import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launch } from './browser';
import { startServer, type TestServer } from './server';
import { startVendorProxy, type VendorProxy } from './vendor-proxy';

/**
 * One Chromium and one recording server for a whole test file: `ready` receives them once both
 * are up (register fixture files there). Every context a test leaves open is closed after it, so
 * a failed assertion cannot leave a page running that skews the next test's request counts.
 * With `vendors`, a vendor proxy (test/support/vendor-proxy.ts) carries every host but loopback,
 * so pages may carry the vendors' snippets verbatim; its records are cleared after each test.
 */
export function useBrowserAndServer(
  ready: (browser: Browser, server: TestServer) => void,
  options: { bfcache?: boolean; vendors?: boolean } = {},
): { readonly vendors: VendorProxy } {
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  let vendors: VendorProxy | undefined;
  beforeAll(async () => {
    if (options.vendors) vendors = await startVendorProxy();
    browser = await launch({ bfcache: options.bfcache, proxy: vendors?.proxyUrl });
    server = await startServer();
    ready(browser, server);
  });
  afterEach(async () => {
    await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
    vendors?.reset();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await vendors?.close();
  });
  return {
    get vendors() {
      if (!options.vendors) throw new Error('no vendor proxy: useBrowserAndServer(ready, { vendors: true })');
      return vendors!;
    },
  };
}
