import type { Context } from '../context';
import { findOrCreateSurface } from './mount';

/** Largest dot, for the most clicked selector; others scale by the square root of their share. */
const MAX_RADIUS = 28;
const MIN_RADIUS = 6;

/** What the overlay draws: one dot per stored selector that still matches an element. */
interface Dot {
  x: number;
  y: number;
  count: number;
}

/** The QA heatmap overlay: the page's stored clicks from the collector, drawn over the page. */
export interface HeatmapOverlay {
  show(): Promise<void>;
  hide(): void;
}

/**
 * Reads `/api/clicks?page=` from the collector (the script's own origin unless configured) and
 * draws a dot per selector on a canvas in `<pagepulse-heatmap>`'s shadow root. Plain canvas, no
 * React: QA tooling must not cost the visitor anything. Selectors are only handed to
 * querySelector (inside try/catch), never to anything that could run them.
 */
export function createHeatmapOverlay(ctx: Context, collector: string): HeatmapOverlay {
  let removeSurface: (() => void) | null = null;
  const pageAddress = (): string => ctx.win.location.href.split('#')[0]!;

  const hide = (): void => {
    removeSurface?.();
    removeSurface = null;
  };

  return {
    hide,
    async show() {
      const result = await ctx.request({ url: `${collector}api/clicks?page=${encodeURIComponent(pageAddress())}` });
      if (!result.ok) {
        ctx.log.warn(`heatmap: the collector did not answer (${result.error.kind} ${result.error.status})`);
        return;
      }
      const clicks = (result.data as { clicks?: unknown } | null)?.clicks;
      if (!Array.isArray(clicks)) {
        ctx.log.warn('heatmap: unexpected answer from the collector');
        return;
      }
      const dots: Dot[] = [];
      for (const entry of clicks as unknown[]) {
        const { selector, count } = (entry ?? {}) as { selector?: unknown; count?: unknown };
        if (typeof selector !== 'string' || typeof count !== 'number' || !(count > 0)) continue;
        const element = find(ctx.doc, selector) ?? find(ctx.doc, withoutState(selector));
        if (!element) continue; // a selector of another page layout
        const box = element.getBoundingClientRect();
        dots.push({ x: box.left + box.width / 2 + ctx.win.scrollX, y: box.top + box.height / 2 + ctx.win.scrollY, count });
      }
      hide();
      removeSurface = draw(ctx, dots);
      ctx.lifetime.add(hide);
      ctx.log.info(`heatmap: ${dots.length} of ${clicks.length} stored selectors drawn`);
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

function draw(ctx: Context, dots: Dot[]): () => void {
  const { doc } = ctx;
  const width = doc.documentElement.scrollWidth;
  const height = doc.documentElement.scrollHeight;
  const surface = findOrCreateSurface(
    doc,
    'heatmap',
    `:host{all:initial!important;display:block!important;position:absolute!important;left:0!important;top:0!important;` +
      `z-index:2147483646!important;pointer-events:none!important}canvas{display:block}`,
  );
  const canvas = doc.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `Heatmap: ${dots.length}`);
  surface.container.replaceChildren(canvas);
  const paint = canvas.getContext('2d');
  const most = Math.max(1, ...dots.map((d) => d.count));
  if (paint) {
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
  surface.host.dataset.dots = String(dots.length);
  return () => surface.host.remove();
}
