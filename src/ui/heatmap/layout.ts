// Where each stored click's element is on the page now: the overlay's measuring, apart from its drawing.

/** A stored selector that still matches an element of this page, with its click count. */
export interface Target {
  selector: string;
  element: Element;
  count: number;
  /** The element's text, short (label.ts). */
  label: string;
}

/** One dot: its centre (page coordinates on the page layer, viewport ones on the viewport layer). */
export interface Dot {
  x: number;
  y: number;
  count: number;
  label: string;
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where every target is right now: which layer it is drawn on, or that it has no box. */
export interface Layout {
  page: Dot[];
  viewport: Dot[];
  /** Selectors whose element has no box here (display:none, zero size, clipped away), with counts. */
  hidden: Array<{ selector: string; count: number }>;
}

/**
 * Where each target is now. An element is drawn on the viewport layer when it or an ancestor is
 * `position: fixed` or `sticky` (its place on the screen does not follow the scroll position
 * alone); it has no box when it is not rendered (display:none, also of an ancestor; visibility
 * hidden), has zero size, or lies wholly outside an ancestor that clips its overflow.
 */
export function measure(win: Window, targets: Target[]): Layout {
  const layout: Layout = { page: [], viewport: [], hidden: [] };
  for (const { selector, element, count, label } of targets) {
    const box = element.isConnected ? visibleBox(win, element) : null;
    if (!box) {
      const listed = layout.hidden.find((h) => h.selector === selector);
      if (listed) listed.count += count;
      else layout.hidden.push({ selector, count });
      continue;
    }
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (followsViewport(win, element)) layout.viewport.push({ x: Math.round(x), y: Math.round(y), count, label });
    else layout.page.push({ x: Math.round(x + win.scrollX), y: Math.round(y + win.scrollY), count, label });
  }
  return layout;
}

/**
 * The element's box as far as it can be seen, or null. Clipped by the ancestors whose overflow
 * clips it: every ancestor up to an absolutely positioned box's containing block is skipped (it
 * does not clip), a fixed box is clipped by none; `body` and `html` are left out (their overflow
 * may belong to the viewport).
 */
function visibleBox(win: Window, element: Element): Box | null {
  const check = (element as Element & { checkVisibility?: (options?: object) => boolean }).checkVisibility;
  if (check && !check.call(element, { visibilityProperty: true })) return null;
  if (element.getClientRects().length === 0) return null;
  let { left, top, right, bottom } = element.getBoundingClientRect();
  if (!(right - left > 0 && bottom - top > 0)) return null;
  const doc = element.ownerDocument;
  let position = win.getComputedStyle(element).position;
  for (let node = element.parentElement; node && node !== doc.body && node !== doc.documentElement; node = node.parentElement) {
    if (position === 'fixed') break;
    const style = win.getComputedStyle(node);
    if (position === 'absolute' && style.position === 'static') continue; // not its containing block
    position = style.position;
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const clip = node.getBoundingClientRect();
    if (style.overflowX !== 'visible') {
      left = Math.max(left, clip.left);
      right = Math.min(right, clip.right);
    }
    if (style.overflowY !== 'visible') {
      top = Math.max(top, clip.top);
      bottom = Math.min(bottom, clip.bottom);
    }
    if (!(right - left > 0 && bottom - top > 0)) return null;
  }
  return { left, top, width: right - left, height: bottom - top };
}

/** Whether the element or an ancestor is fixed or sticky: its dot belongs to the viewport layer. */
function followsViewport(win: Window, element: Element): boolean {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const { position } = win.getComputedStyle(node);
    if (position === 'fixed' || position === 'sticky') return true;
  }
  return false;
}
