/** Longest wait for animations before a click: an endless one must not hang the click. */
export const SETTLE_MAX_MS = 2000;

/**
 * Runs IN THE PAGE before a pointer click (puppeteer and classic WebDriver click where the element
 * is now; Playwright waits for a still element itself): wait until the animations of the
 * element's document or shadow root have finished, so a sliding box is clicked where it stops.
 */
export function settle(args: { selector: string; host: string; maxMs: number }): Promise<boolean> {
  const root = args.host ? document.querySelector(args.host)?.shadowRoot : document;
  if (!root || !root.querySelector(args.selector)) return Promise.resolve(false);
  const running = root.getAnimations().map((animation) => animation.finished.catch(() => undefined));
  const cap = new Promise((resolve) => setTimeout(resolve, args.maxMs));
  return Promise.race([Promise.all(running), cap]).then(() => true);
}
