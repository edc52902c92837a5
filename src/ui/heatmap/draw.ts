// The overlay's drawing: dots on a canvas, and the list of stored selectors that have no box.
import type { Dot, Layout } from './layout';

/** Largest dot, for the most clicked selector; others scale by the square root of their share. */
const MAX_RADIUS = 28;
const MIN_RADIUS = 6;

/** Paint the dots (radius by the square root of their share of the most clicked) on a canvas of this size. */
export function paint(canvas: HTMLCanvasElement, width: number, height: number, dots: Dot[], most: number): void {
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
export function fillPanel(doc: Document, panel: HTMLElement, hidden: Layout['hidden']): void {
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
