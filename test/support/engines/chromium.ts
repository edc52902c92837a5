import type { BrowserContext } from 'playwright-core';
import { launch } from '../browser';
import type { Engine, EnginePage, Key, LaunchOptions } from './types';

/** Chromium through playwright-core (Debian's /usr/bin/chromium, as the Chromium suite). */
export async function launchChromium(options: LaunchOptions = {}): Promise<Engine> {
  const browser = await launch({ proxy: options.proxy });
  return {
    name: 'chromium',
    async newPage() {
      const context: BrowserContext = await browser.newContext();
      const page = await context.newPage();
      const adapter: EnginePage = {
        goto: async (url) => void (await page.goto(url)),
        reload: async () => void (await page.reload()),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
        click: (selector, host) =>
          page
            .locator(host ? `${host} ${selector}` : selector)
            .first()
            .click(),
        press: (key: Key) => page.keyboard.press(key),
        cookies: async () => Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value])),
        close: () => context.close(),
      };
      return adapter;
    },
    close: () => browser.close(),
  };
}
