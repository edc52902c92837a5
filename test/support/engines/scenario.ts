import { fixturePage, type TestServer } from '../server';
import type { EnginePage } from './types';

/** Helpers the shared scenarios use; each goes through the driver interface only. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One value as jQuery 1.12.4's own `$.param` encodes it (%20 as +, ( ) ! * ' ~ kept), run in node
 * (test/support/jquery-param.ts): an encoder independent of the product's.
 */
export { enc } from '../jquery-param';

/** Text inside a host element's open shadow root ('' when the host is absent). */
export function shadowText(page: EnginePage, host: string): Promise<string> {
  return page.evaluate((tag) => document.querySelector(tag)?.shadowRoot?.textContent ?? '', host);
}

/** A page served under `path` that loads `bundle` with one script tag, as a site admin would. */
export function serve(
  server: TestServer,
  path: string,
  bundle: string,
  options: Omit<Parameters<typeof fixturePage>[0], 'bundle'> = {},
): string {
  server.page(path, fixturePage({ ...options, bundle }));
  return path;
}

/**
 * The document's identity: a random mark its window keeps (set at the first ask), so a reload gives
 * a new one. Not `performance.timeOrigin`: WebKit's (Performance::timeOrigin) turns the monotonic
 * origin into wall time at each read (approximateWallTime, the clocks' offset at that moment) and
 * rounds it, so one document may answer two values a millisecond apart, and the watch took that for
 * a reload (engines/vendors.test.ts failed so once in CI, in WebKit, 655 ms into the test).
 */
export const documentId = (page: EnginePage): Promise<string> => page.evaluate(markOf, false);

/** The document's identity once it has loaded, else '' (while the new document loads, a script may fail or wait). */
export const loadedDocumentId = (page: EnginePage): Promise<string> => page.evaluate(markOf, true).catch(() => '');

/** In the page: the window's mark (made at the first ask); with `loaded`, '' until the document has loaded. */
function markOf(loaded: boolean): string {
  if (loaded && document.readyState !== 'complete') return '';
  const w = window as unknown as { __ppDocument?: string };
  return (w.__ppDocument ??= `${Math.random()}`);
}

/** Click, then report whether the page reloaded (a new document, loaded) within `waitMs`. */
export async function clickAndWatch(page: EnginePage, selector: string, host: string, waitMs = 2500): Promise<boolean> {
  const before = await documentId(page);
  await page.click(selector, host);
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await sleep(100);
    const now = await loadedDocumentId(page);
    if (now !== '' && now !== before) return true;
  }
  return false;
}

/**
 * Requests of the consent log (protocol section 5) since an index, sorted (keepalive fetches race),
 * with com_gdpr's fields only: our `consent_*` fields are checked where a scenario is about them.
 */
export function consentLogs(server: TestServer, since: number): string[] {
  return server.requests
    .slice(since)
    .filter((r) => r.option === 'com_gdpr' && r.task?.startsWith('user.process'))
    .map((r) => `${r.task} ${r.body.replace(/&consent_[a-z]+=[^&]*/g, '')}`)
    .sort();
}

/** The consent IDs the log calls since an index carried (docs/protocol.md#consent-log). */
export function consentIds(server: TestServer, since: number): Array<string | null> {
  return server.requests
    .slice(since)
    .filter((r) => r.option === 'com_gdpr' && r.task?.startsWith('user.process'))
    .map((r) => new URLSearchParams(r.body).get('consent_id'));
}

/** The texts of the buttons of every placeholder, each in its own shadow root. */
export function placeholderButtons(page: EnginePage): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.gdprlock-placeholder')).flatMap((host) =>
      Array.from(host.shadowRoot?.querySelectorAll('button') ?? []).map((b) => b.textContent ?? ''),
    ),
  );
}
