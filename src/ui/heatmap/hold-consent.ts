// While the overlay is open the consent banner waits (hidden), so that it covers neither the page
// nor the dots; taken back on hide and destroy.

/**
 * The consent banner's host (`<pagepulse-consent>`) pins itself with `:host { all: initial
 * !important; display: block !important }`, which wins over any style the page (or an inline
 * style) gives the host. A later `:host` rule of its own shadow root wins over it: the overlay
 * appends one sheet there while it is open and takes it out again on hide.
 */
const HOLD_ATTRIBUTE = 'data-pagepulse-heatmap-open';
const held = new WeakMap<ShadowRoot, { sheet?: CSSStyleSheet; style?: HTMLStyleElement }>();

/** Hide every consent banner host until releaseConsent (call again for a host that appeared since). */
export function holdConsent(doc: Document): void {
  for (const host of doc.querySelectorAll<HTMLElement>('pagepulse-consent')) {
    const shadow = host.shadowRoot;
    if (!shadow) continue;
    if (!host.hasAttribute(HOLD_ATTRIBUTE)) host.setAttribute(HOLD_ATTRIBUTE, ''); // no mutation record when nothing changes
    const css = ':host{display:none!important}';
    const hold = held.get(shadow) ?? {};
    held.set(shadow, hold);
    if (
      shadow.adoptedStyleSheets !== undefined &&
      typeof CSSStyleSheet === 'function' &&
      'replaceSync' in CSSStyleSheet.prototype
    ) {
      if (!hold.sheet) (hold.sheet = new CSSStyleSheet()).replaceSync(css);
      // the banner's code reassigns its sheets when it mounts again: put ours back last
      const sheets = shadow.adoptedStyleSheets;
      if (sheets[sheets.length - 1] !== hold.sheet)
        shadow.adoptedStyleSheets = [...sheets.filter((s) => s !== hold.sheet), hold.sheet];
    } else if (!hold.style?.isConnected) {
      hold.style = doc.createElement('style');
      hold.style.textContent = css;
      shadow.append(hold.style);
    }
  }
}

/** Show the consent banner hosts again. */
export function releaseConsent(doc: Document): void {
  for (const host of doc.querySelectorAll<HTMLElement>('pagepulse-consent')) {
    host.removeAttribute(HOLD_ATTRIBUTE);
    const shadow = host.shadowRoot;
    const hold = shadow && held.get(shadow);
    if (!shadow || !hold) continue;
    if (hold.sheet) shadow.adoptedStyleSheets = shadow.adoptedStyleSheets.filter((s) => s !== hold.sheet);
    hold.style?.remove();
    held.delete(shadow);
  }
}
