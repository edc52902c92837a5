import type { Context } from '../../context';
import { findOrCreateSurface } from '../mount';
import { createPanel, paint } from './draw';
import { holdConsent, releaseConsent } from './hold-consent';
import { measure, type Target } from './layout';
import { resolve, type Stored } from './resolve';
import { overlayTexts } from './texts';

export { withoutState } from './resolve';

/** The QA heatmap overlay: the page's stored clicks from the collector, drawn over the page. */
export interface HeatmapOverlay {
  show(): Promise<void>;
  hide(): void;
}

/**
 * Reads `/api/clicks?page=` from the collector (the script's own origin unless configured) and
 * draws a dot per selector in `<pagepulse-heatmap>`'s shadow root, labelled with its element's
 * text. Plain canvas, no React: QA tooling must not cost the visitor anything. Selectors are only
 * handed to querySelector (inside try/catch), never to anything that could run them.
 *
 * Two layers: dots of elements in the page's flow on a canvas the size of the document (they
 * scroll with it), dots of fixed and sticky elements (or of elements inside one) on a
 * `position: fixed` canvas the size of the viewport. Both are measured again after anything that
 * can move an element (open()), once per frame. Elements the selector finds but that have no box
 * are listed in the panel instead of being drawn at (0, 0). While the overlay is open the consent
 * banner waits (hidden), so that it neither covers the page nor the dots; hide() and destroy()
 * bring it back.
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
      const stored: Stored[] = [];
      for (const entry of clicks as unknown[]) {
        const { selector, count } = (entry ?? {}) as { selector?: unknown; count?: unknown };
        if (typeof selector === 'string' && typeof count === 'number' && count > 0) stored.push({ selector, count });
      }
      hide();
      generation = started;
      const targets = resolve(ctx.doc, stored);
      stop = ctx.lifetime.add(open(ctx, stored, targets, hide));
      ctx.log.info(`heatmap: ${targets.length} of ${clicks.length} stored selectors found`);
    },
  };
}

const CSS =
  `:host{all:initial!important;display:block!important;position:absolute!important;left:0!important;top:0!important;` +
  `z-index:2147483646!important;pointer-events:none!important}canvas{display:block}[hidden]{display:none!important}` +
  `canvas.viewport{position:fixed;left:0;top:0}` +
  `section{position:fixed;right:8px;bottom:8px;width:max-content;max-width:min(360px,calc(100vw - 16px));max-height:40vh;` +
  `overflow:auto;pointer-events:auto;box-sizing:border-box;padding:4px 4px 4px 8px;background:#fff;color:#1d1d1f;` +
  `border:1px solid #888;border-radius:6px;box-shadow:0 4px 16px rgb(0 0 0/.25);font:13px/1.4 system-ui,sans-serif}` +
  `section.top{top:8px;bottom:auto}.bar{display:flex;align-items:center;gap:4px}` +
  `h2{margin:0;font-size:13px;flex:1}button{font:inherit;color:inherit;background:none;border:0;border-radius:4px;` +
  `padding:6px;min-height:32px;cursor:pointer}button:hover{background:#eee}button:focus-visible{outline:2px solid #0b57d0}` +
  `.toggle{font-weight:600;text-align:left}.icon{min-width:32px;font-size:16px;line-height:1}` +
  `.lists{padding:0 8px 6px 4px}h3{margin:6px 0 2px;font-size:13px}ul{margin:0;padding:0 0 0 18px}` +
  `code{font:12px/1.4 ui-monospace,monospace;word-break:break-all}`;

/** Narrower than this, the panel starts closed (one line). */
const NARROW = 600;

/**
 * Draw the targets and keep them on their elements; returns the teardown. Measured again, once per
 * animation frame, after: a scroll of the page or of any element in it (`scroll`, captured, as
 * `scrollTo` and anchor jumps fire it), a resize, a change of the document's or a target's size
 * (ResizeObserver: a menu that opens gives its links a box), a change of any attribute in the
 * document (a class, style or `aria-expanded` that a theme toggles: a header turning fixed, a menu
 * opening) and the end of a CSS transition or animation (a header sliding in). Elements added or
 * removed make the stored selectors be looked up again. Nothing is repainted when no dot moved.
 */
function open(ctx: Context, stored: Stored[], initial: Target[], close: () => void): () => void {
  const { doc, win } = ctx;
  const focused = doc.activeElement;
  const texts = overlayTexts(win.location.hash, ctx.config.lang);
  const surface = findOrCreateSurface(doc, 'heatmap', CSS);
  const pageCanvas = doc.createElement('canvas');
  const viewportCanvas = doc.createElement('canvas');
  viewportCanvas.className = 'viewport';
  for (const canvas of [pageCanvas, viewportCanvas]) canvas.setAttribute('role', 'img');
  const panel = createPanel(doc, texts, win.innerWidth >= NARROW, close);
  surface.container.replaceChildren(pageCanvas, viewportCanvas, panel.section);
  // one landmark around dots and panel, so that a screen reader finds the overlay as a whole
  surface.container.setAttribute('role', 'complementary');
  surface.container.setAttribute('aria-label', 'Heatmap');
  let targets = initial;
  let stale = false;
  let pageKey = '';
  // the document's size without the page canvas: measured again only after a change of size
  let resized = true;
  let docWidth = 0;
  let docHeight = 0;
  let viewportKey = '';
  let panelKey = '';
  const sizes = typeof ResizeObserver === 'function' ? new ResizeObserver(() => ((resized = true), schedule())) : null;
  const observeSizes = (): void => {
    sizes?.disconnect();
    sizes?.observe(doc.documentElement);
    for (const { element } of targets) sizes?.observe(element);
  };
  const set = (name: string, value: string): void => {
    if (surface.host.dataset[name] !== value) surface.host.dataset[name] = value;
  };

  const render = (): void => {
    if (stale) {
      stale = false;
      const found = resolve(doc, stored);
      if (found.length !== targets.length || found.some((t, i) => t.element !== targets[i]!.element)) {
        targets = found;
        observeSizes();
      }
    }
    const layout = measure(win, targets);
    const most = Math.max(1, ...targets.map((t) => t.count));
    const root = doc.documentElement;
    if (resized) {
      resized = false;
      // the canvas is part of the document's size: measured with the canvas laid out 0 x 0 (its
      // style, not its bitmap, which would be made anew: a page-sized bitmap costs many ms)
      pageCanvas.style.width = pageCanvas.style.height = '0';
      docWidth = root.scrollWidth;
      docHeight = root.scrollHeight;
      pageCanvas.removeAttribute('style');
    }
    const key = JSON.stringify([layout.page, docWidth, docHeight]);
    if (key !== pageKey) {
      pageKey = key;
      paint(pageCanvas, docWidth, docHeight, layout.page, most);
    }
    const fixedKey = JSON.stringify([layout.viewport, root.clientWidth, root.clientHeight]);
    if (fixedKey !== viewportKey) {
      viewportKey = fixedKey;
      paint(viewportCanvas, root.clientWidth, root.clientHeight, layout.viewport, most);
    }
    pageCanvas.setAttribute('aria-label', texts.canvas(layout.page.length));
    viewportCanvas.setAttribute('aria-label', texts.fixedCanvas(layout.viewport.length));
    set('dots', String(layout.page.length + layout.viewport.length));
    set('fixedDots', String(layout.viewport.length));
    set('hidden', String(layout.hidden.length));
    const listed = JSON.stringify([layout.page.length, layout.viewport.length, targets.map((t) => t.label), layout.hidden]);
    if (listed !== panelKey) {
      panelKey = listed;
      panel.update(layout);
    }
    holdConsent(doc);
  };

  let frame = 0;
  const schedule = (): void => {
    if (!frame) frame = win.requestAnimationFrame(() => ((frame = 0), render()));
  };
  const passive = { passive: true, capture: true };
  const unlisten = [
    ctx.lifetime.listen(win, 'scroll', schedule, passive),
    ctx.lifetime.listen(win, 'resize', () => ((resized = true), schedule()), passive),
    ctx.lifetime.listen(win, 'transitionend', schedule, passive),
    ctx.lifetime.listen(win, 'animationend', schedule, passive),
  ];
  // the page's own changes (not the overlay's, not the held banner's: `pagepulse-*` hosts)
  const ours = (node: Node): boolean => /^pagepulse-/.test((node as Element).localName ?? '');
  const changes =
    typeof MutationObserver === 'function'
      ? new MutationObserver((records) => {
          let moved = false;
          let added = false;
          for (const record of records) {
            if (record.type === 'childList') {
              added = true;
              if ([...record.addedNodes, ...record.removedNodes].every(ours)) continue;
              stale = true;
            } else if (ours(record.target)) continue;
            moved = true;
          }
          if (moved) {
            resized = true;
            schedule();
          }
          if (added) holdConsent(doc); // a banner host that appears while the overlay is open waits too
        })
      : null;
  changes?.observe(doc.documentElement, { childList: true, subtree: true, attributes: true });
  observeSizes();
  render();

  return () => {
    if (frame) win.cancelAnimationFrame(frame);
    for (const remove of unlisten) remove();
    changes?.disconnect();
    sizes?.disconnect();
    // closed from its own panel: the focus goes back where it was
    const inside = doc.activeElement === surface.host;
    surface.host.remove();
    releaseConsent(doc);
    if (inside && focused?.isConnected) (focused as HTMLElement).focus?.();
  };
}
