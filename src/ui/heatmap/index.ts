import type { Context } from '../../context';
import { findOrCreateSurface } from '../mount';
import { fillPanel, paint } from './draw';
import { holdConsent, releaseConsent } from './hold-consent';
import { measure, type Target } from './layout';

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
