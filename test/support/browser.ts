import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; test tools' own browser downloads do not work on these machines. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Which built bundle the browser suites load (both builds run the whole suite). */
export const BUNDLE = process.env.PAGEPULSE_BUNDLE ?? 'pagepulse.iife.js';

/** Launch headless Chromium. */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/** Errors the page threw or rejected without handling; a test asserts this stays empty. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Console messages of the page, as `type: text`. */
export function collectConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
  return lines;
}

/** Give a context the consent cookies as if the visitor had chosen (protocol section 5). */
export async function grantConsent(context: BrowserContext, origin: string, categories = '1.2.3', status = 'allow'): Promise<void> {
  await context.addCookies([
    { name: 'cookieconsent_status', value: status, url: origin, sameSite: 'Lax' },
    { name: 'cookieconsent_categories', value: categories, url: origin, sameSite: 'Lax' },
  ]);
}

/** Text inside a host element's open shadow root ('' when the host is absent). */
export function shadowText(page: Page, host: string): Promise<string> {
  return page.evaluate((tag) => document.querySelector(tag)?.shadowRoot?.textContent ?? '', host);
}
