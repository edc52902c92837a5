import puppeteer, { type ElementHandle } from 'puppeteer-core';
import { settle, SETTLE_MAX_MS } from './settle';
import type { Engine, EnginePage, Key, LaunchOptions } from './types';

/** Debian's Firefox ESR (apt-get install firefox-esr). */
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * A manual HTTP proxy for http and https, set in the profile for the whole browser; loopback stays
 * direct (Firefox sends even localhost through a proxy unless allow_hijacking_localhost is off).
 */
function proxyPrefs(proxy: string): Record<string, unknown> {
  const { hostname, port } = new URL(proxy);
  return {
    'network.proxy.type': 1,
    'network.proxy.http': hostname,
    'network.proxy.http_port': Number(port),
    'network.proxy.ssl': hostname,
    'network.proxy.ssl_port': Number(port),
    'network.proxy.no_proxies_on': 'localhost, 127.0.0.1, [::1]',
    'network.proxy.allow_hijacking_localhost': false,
  };
}

/**
 * Firefox through puppeteer-core over WebDriver BiDi, headless, no geckodriver. (playwright-core's
 * Firefox mode needs its own patched build; it sends a BiDi command the stock ESR lacks.) Each
 * page gets its own browser context (BiDi user context): cookies and storage start empty.
 */
export async function launchFirefox(options: LaunchOptions = {}): Promise<Engine> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    ...(options.proxy && { extraPrefsFirefox: proxyPrefs(options.proxy), acceptInsecureCerts: true }),
  });
  return {
    name: 'firefox',
    async newPage() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const adapter: EnginePage = {
        goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
        reload: async () => void (await page.reload({ waitUntil: 'load' })),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
        async click(selector, host) {
          await page.evaluate(settle, { selector, host: host ?? '', maxMs: SETTLE_MAX_MS });
          const handle = await page.evaluateHandle(
            (sel, tag) =>
              ((tag ? document.querySelector(tag)?.shadowRoot : document)?.querySelector(sel) ?? null) as Element | null,
            selector,
            host ?? '',
          );
          const element = handle.asElement() as ElementHandle<Element> | null;
          if (!element) throw new Error(`no element ${host ?? ''} ${selector}`);
          await element.click();
          await handle.dispose();
        },
        async press(key: Key) {
          if (key === 'Shift+Tab') {
            await page.keyboard.down('Shift');
            await page.keyboard.press('Tab');
            await page.keyboard.up('Shift');
          } else await page.keyboard.press(key);
        },
        cookies: async () => Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value])),
        close: () => context.close(),
      };
      return adapter;
    },
    close: () => browser.close(),
  };
}
