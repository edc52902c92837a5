import type { BrowserContext } from 'playwright-core';
import { BUNDLE } from './browser';

/**
 * The demo pages load /dist/pagepulse.iife.js, as a site admin's tag would; when the suite runs
 * against the lite build, that address is answered with the lite file instead.
 */
export async function serveBundleUnderTest(context: BrowserContext): Promise<void> {
  if (BUNDLE === 'pagepulse.iife.js') return;
  await context.route('**/dist/pagepulse.iife.js', (route) =>
    route.fulfill({ path: `dist/${BUNDLE}`, contentType: 'text/javascript' }),
  );
}
