import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launch } from './browser';
import { startServer, type TestServer } from './server';

/**
 * One Chromium and one recording server for a whole test file: `ready` receives them once both
 * are up (register fixture files there). Every context a test leaves open is closed after it, so
 * a failed assertion cannot leave a page running that skews the next test's request counts.
 */
export function useBrowserAndServer(
  ready: (browser: Browser, server: TestServer) => void,
  options: { bfcache?: boolean } = {},
): void {
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    browser = await launch(options);
    server = await startServer();
    ready(browser, server);
  });
  afterEach(async () => {
    await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}
