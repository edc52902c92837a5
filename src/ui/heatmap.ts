import type { Context } from '../context';
import { findOrCreateSurface } from './mount';

/** Largest dot, for the most clicked selector; others scale by the square root of their share. */
const MAX_RADIUS = 28;
const MIN_RADIUS = 6;

/** A stored selector that still matches an element of this page, with its click count. */
interface Target {
  selector: string;
  element: Element;
  count: number;
}

/** One dot: its centre (page coordinates on the page layer, viewport ones on the viewport layer). */
interface Dot {
  x: number;
  y: number;
  count: number;
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where every target is right now: which layer it is drawn on, or that it has no box. */
interface Layout {
  page: Dot[];
  viewport: Dot[];
  /** Selectors whose element has no box here (display:none, zero size, clipped away), with counts. */
  hidden: Array<{ selector: string; count: number }>;
}

/** The QA heatmap overlay: the page's stored clicks from the collector, drawn over the page. */
export interface HeatmapOverlay {
  show(): Promise<void>;
  hide(): void;
}

/**
 * Reads `/api/clicks?page=` from the collector (the script's own origin unless configured) and
 * draws a dot per selector in `<pagepulse-heatmap>`'s shadow root. Plain canvas, no React: QA
 * tooling must not cost the visitor anything. Selectors are only handed to querySelector (inside
 * try/catch), never to anything that could run them.
 *
 * Two layers: dots of elements in the page's flow on a canvas the size of the document (they
 * scroll with it), dots of fixed and sticky elements (or of elements inside one) on a
 * `position: fixed` canvas the size of the viewport, redrawn on scroll and resize (once per
 * frame). Elements the selector finds but that have no box are listed in a panel beside the
 * canvases instead of being drawn at (0, 0). While the overlay is open the consent banner waits
 * (hidden), so that it neither covers the page nor the dots; hide() and destroy() bring it back.
 */
export function createHeatmapOverlay(ctx: Context, collector: string): HeatmapOverlay {
  let stop: (() => void) | null = null;
  let generation = 0;
  const pageAddress = (): string => ctx.win.location.href.split('#')[0]!;

  const hide = (): void => {
    generation += 1;
    const teardown = stop;
    stop = null;
    teardown?.();
  };

  return {
    hide,
    async show() {
      const started = ++generation;
      const result = await ctx.request({ url: `${collector}api/clicks?page=${encodeURIComponent(pageAddress())}` });
      if (started !== generation) return; // hidden (or shown again) meanwhile
      if (!result.ok) {
        ctx.log.warn(`heatmap: the collector did not answer (${result.error.kind} ${result.error.status})`);
        return;
      }
      const clicks = (result.data as { clicks?: unknown } | null)?.clicks;
      if (!Array.isArray(clicks)) {
        ctx.log.warn('heatmap: unexpected answer from the collector');
        return;
      }
      const targets: Target[] = [];
      for (const entry of clicks as unknown[]) {
        const { selector, count } = (entry ?? {}) as { selector?: unknown; count?: unknown };
        if (typeof selector !== 'string' || typeof count !== 'number' || !(count > 0)) continue;
        const element = find(ctx.doc, selector) ?? find(ctx.doc, withoutState(selector));
        if (element) targets.push({ selector, element, count }); // else: a selector of another page layout
      }
      hide();
      generation = started;
      stop = ctx.lifetime.add(open(ctx, targets));
      ctx.log.info(`heatmap: ${targets.length} of ${clicks.length} stored selectors found`);
    },
  };
}

/**
 * A stored selector without its state suffix: `:value` after the original's and PagePulse's
 * selectors, `::value` after PagePulse's older ones. The suffix starts at the first colon that is
 * neither escaped nor part of `:nth-child(k)`.
 */
export function withoutState(selector: string): string {
  const pattern = /\\[\s\S]|:nth-child\(\d+\)|(:)/g;
  for (let match = pattern.exec(selector); match; match = pattern.exec(selector))
    if (match[1]) return selector.slice(0, match.index);
  return selector;
}

/** The first element a stored selector names, or null (also for a selector that is not valid CSS). */
function find(doc: Document, selector: string): Element | null {
  try {
    return doc.querySelector(selector);
  } catch {
    return null;
  }
}

const CSS =
  `:host{all:initial!important;display:block!important;position:absolute!important;left:0!important;top:0!important;` +
  `z-index:2147483646!important;pointer-events:none!important}canvas{display:block}` +
  `canvas.viewport{position:fixed;left:0;top:0}` +
  `section{position:fixed;right:8px;bottom:8px;max-width:min(360px,calc(100vw - 16px));max-height:40vh;overflow:auto;` +
  `pointer-events:auto;box-sizing:border-box;padding:8px 12px;background:#fff;color:#1d1d1f;border:1px solid #888;` +
  `border-radius:6px;box-shadow:0 4px 16px rgb(0 0 0/.25);font:13px/1.4 system-ui,sans-serif}` +
  `h2{margin:0 0 4px;font-size:14px}ul{margin:0;padding:0 0 0 18px}code{font:12px/1.4 ui-monospace,monospace;word-break:break-all}`;

/** Draw the targets, keep them on their elements while the page scrolls; returns the teardown. */
function open(ctx: Context, targets: Target[]): () => void {
  const { doc, win } = ctx;
  const surface = findOrCreateSurface(doc, 'heatmap', CSS);
  const pageCanvas = doc.createElement('canvas');
  const viewportCanvas = doc.createElement('canvas');
  viewportCanvas.className = 'viewport';
  for (const canvas of [pageCanvas, viewportCanvas]) canvas.setAttribute('role', 'img');
  const panel = doc.createElement('section');
  surface.container.replaceChildren(pageCanvas, viewportCanvas);
  const most = Math.max(1, ...targets.map((t) => t.count));
  let pageKey = '';
  let panelKey = '';

  const render = (): void => {
    const layout = measure(win, targets);
    const key = JSON.stringify([layout.page, doc.documentElement.scrollWidth, doc.documentElement.scrollHeight]);
    if (key !== pageKey) {
      pageKey = key;
      // the canvas itself is part of the document's size: measure without it
      pageCanvas.width = pageCanvas.height = 0;
      paint(pageCanvas, doc.documentElement.scrollWidth, doc.documentElement.scrollHeight, layout.page, most);
    }
    paint(viewportCanvas, doc.documentElement.clientWidth, doc.documentElement.clientHeight, layout.viewport, most);
    const drawn = layout.page.length + layout.viewport.length;
    pageCanvas.setAttribute('aria-label', `Heatmap: ${layout.page.length} of ${drawn}`);
    viewportCanvas.setAttribute('aria-label', `Heatmap, fixed and sticky elements: ${layout.viewport.length} of ${drawn}`);
    surface.host.dataset.dots = String(drawn);
    surface.host.dataset.fixedDots = String(layout.viewport.length);
    surface.host.dataset.hidden = String(layout.hidden.length);
    const hiddenKey = JSON.stringify(layout.hidden);
    if (hiddenKey !== panelKey) {
      panelKey = hiddenKey;
      fillPanel(doc, panel, layout.hidden);
      if (layout.hidden.length) surface.container.append(panel);
      else panel.remove();
    }
    holdConsent(doc);
  };

  let frame = 0;
  const schedule = (): void => {
    if (!frame) frame = win.requestAnimationFrame(() => ((frame = 0), render()));
  };
  const unlisten = [
    ctx.lifetime.listen(win, 'scroll', schedule, { passive: true }),
    ctx.lifetime.listen(win, 'resize', schedule, { passive: true }),
  ];
  // a banner host that appears while the overlay is open waits too
  const observer = typeof MutationObserver === 'function' ? new MutationObserver(() => holdConsent(doc)) : null;
  for (const node of new Set([doc.documentElement, doc.body])) if (node) observer?.observe(node, { childList: true });
  render();

  return () => {
    if (frame) win.cancelAnimationFrame(frame);
    for (const remove of unlisten) remove();
    observer?.disconnect();
    surface.host.remove();
    releaseConsent(doc);
  };
}

/**
 * Where each target is now. An element is drawn on the viewport layer when it or an ancestor is
 * `position: fixed` or `sticky` (its place on the screen does not follow the scroll position
 * alone); it has no box when it is not rendered (display:none, also of an ancestor; visibility
 * hidden), has zero size, or lies wholly outside an ancestor that clips its overflow.
 */
function measure(win: Window, targets: Target[]): Layout {
  const layout: Layout = { page: [], viewport: [], hidden: [] };
  for (const { selector, element, count } of targets) {
    const box = element.isConnected ? visibleBox(win, element) : null;
    if (!box) {
      const listed = layout.hidden.find((h) => h.selector === selector);
      if (listed) listed.count += count;
      else layout.hidden.push({ selector, count });
      continue;
    }
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (followsViewport(win, element)) layout.viewport.push({ x: Math.round(x), y: Math.round(y), count });
    else layout.page.push({ x: Math.round(x + win.scrollX), y: Math.round(y + win.scrollY), count });
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

function paint(canvas: HTMLCanvasElement, width: number, height: number, dots: Dot[], most: number): void {
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width; // also clears it
    canvas.height = height;
  }
  const paint = canvas.getContext('2d');
  if (!paint) return;
  paint.clearRect(0, 0, width, height);
  for (const dot of dots) {
    const radius = MIN_RADIUS + (MAX_RADIUS - MIN_RADIUS) * Math.sqrt(dot.count / most);
    const gradient = paint.createRadialGradient(dot.x, dot.y, 0, dot.x, dot.y, radius);
    gradient.addColorStop(0, 'rgba(220, 30, 30, 0.85)');
    gradient.addColorStop(1, 'rgba(255, 160, 0, 0)');
    paint.fillStyle = gradient;
    paint.beginPath();
    paint.arc(dot.x, dot.y, radius, 0, Math.PI * 2);
    paint.fill();
  }
}

/** The list of selectors without a box: a heading and one item per selector (text only). */
function fillPanel(doc: Document, panel: HTMLElement, hidden: Layout['hidden']): void {
  const heading = doc.createElement('h2');
  heading.id = 'pagepulse-heatmap-hidden';
  heading.textContent = `Not drawn: no box on this page (${hidden.length})`;
  panel.setAttribute('aria-labelledby', heading.id);
  const list = doc.createElement('ul');
  for (const { selector, count } of hidden) {
    const item = doc.createElement('li');
    const code = doc.createElement('code');
    code.textContent = selector;
    item.append(code, ` \u2014 ${count} ${count === 1 ? 'click' : 'clicks'}`);
    list.append(item);
  }
  panel.replaceChildren(heading, list);
}

/**
 * The consent banner's host (`<pagepulse-consent>`) pins itself with `:host { all: initial
 * !important; display: block !important }`, which wins over any style the page (or an inline
 * style) gives the host. A later `:host` rule of its own shadow root wins over it: the overlay
 * appends one sheet there while it is open and takes it out again on hide.
 */
const HOLD_ATTRIBUTE = 'data-pagepulse-heatmap-open';
const held = new WeakMap<ShadowRoot, { sheet?: CSSStyleSheet; style?: HTMLStyleElement }>();

function holdConsent(doc: Document): void {
  for (const host of doc.querySelectorAll<HTMLElement>('pagepulse-consent')) {
    const shadow = host.shadowRoot;
    if (!shadow) continue;
    host.setAttribute(HOLD_ATTRIBUTE, '');
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

function releaseConsent(doc: Document): void {
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
