import { HOST_PREFIX } from '../platform/dom';

// re-exported until tracker/index.ts imports it from platform/dom (after the parallel work merges)
export { isOwnUi } from '../platform/dom';

/** A surface's host element and where its React root renders. */
export interface Surface {
  host: HTMLElement;
  shadow: ShadowRoot;
  container: HTMLElement;
}

/**
 * Find or create `<pagepulse-NAME>` with an OPEN shadow root holding the surface's styles and one
 * container. Idempotent: a second call (a second copy of the bundle) reuses the same host.
 * Styles go through a constructable stylesheet, which a strict CSP (no inline styles) allows.
 */
export function findOrCreateSurface(doc: Document, name: string, css: string): Surface {
  const tag = `${HOST_PREFIX}${name}`;
  let host = doc.querySelector<HTMLElement>(tag);
  if (!host) {
    host = doc.createElement(tag);
    (doc.body ?? doc.documentElement).appendChild(host);
    raise(host);
  }
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  adoptStyles(doc, shadow, css);
  let container = shadow.querySelector<HTMLElement>('div[data-root]');
  if (!container) {
    container = doc.createElement('div');
    container.setAttribute('data-root', '');
    shadow.appendChild(container);
  }
  return { host, shadow, container };
}

/** Stylesheets by their text: every placeholder on a page shares one. */
const sheets = new Map<string, CSSStyleSheet>();

/**
 * Give a shadow root its styles through a constructable stylesheet (a strict CSP, no inline
 * styles, allows it), shared by every root with the same text; a `<style>` where there is none.
 */
export function adoptStyles(doc: Document, shadow: ShadowRoot, css: string): void {
  if (
    shadow.adoptedStyleSheets !== undefined &&
    typeof CSSStyleSheet === 'function' &&
    'replaceSync' in CSSStyleSheet.prototype
  ) {
    let sheet = sheets.get(css);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      sheets.set(css, sheet);
    }
    shadow.adoptedStyleSheets = [sheet];
  } else if (!shadow.querySelector('style')) {
    const style = doc.createElement('style');
    style.textContent = css;
    shadow.appendChild(style);
  }
}

/**
 * Put a host in the top layer as a manual popover: above every z-index the page can set (a
 * stuck preloader at 2147483647, a theme's `body::after` overlay). Where popovers are missing,
 * the host's `z-index: 2147483647` from base.css is the fallback.
 */
function raise(host: HTMLElement): void {
  if (typeof host.showPopover !== 'function') return;
  try {
    host.setAttribute('popover', 'manual');
    host.showPopover();
  } catch {
    host.removeAttribute('popover');
  }
}
