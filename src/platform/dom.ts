/**
 * Names the bundle puts into the page, in one place: the UI mounts them, the click recorder and the
 * selector must recognise them (a click on our own UI is never recorded, our classes never enter a
 * selector), and the blocker draws the placeholders.
 */

/** Prefix of the bundle's host elements (`<pagepulse-consent>` ...). */
export const HOST_PREFIX = 'pagepulse-';
/** com_gdpr's placeholder class over blocked content (docs/protocol.md#blocked-resources). */
export const PLACEHOLDER_CLASS = 'gdprlock-placeholder';
/** The text element inside a placeholder. */
export const PLACEHOLDER_TEXT_CLASS = 'gdprlock-placeholder-text';

/** Whether an event path runs through one of the bundle's host elements or placeholders. */
export function isOwnUi(path: EventTarget[]): boolean {
  for (const node of path) {
    if (typeof (node as Element).localName !== 'string') continue;
    const element = node as Element;
    if (element.localName.startsWith(HOST_PREFIX)) return true;
    if (element.classList?.contains(PLACEHOLDER_CLASS)) return true;
  }
  return false;
}
