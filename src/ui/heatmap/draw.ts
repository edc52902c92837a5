// The overlay's drawing: dots with their labels on a canvas, and the panel that lists them.
import type { Dot, Layout } from './layout';
import type { OverlayTexts } from './texts';

/** Largest dot, for the most clicked selector; others scale by the square root of their share. */
const MAX_RADIUS = 28;
const MIN_RADIUS = 6;
const LABEL_FONT = '600 12px system-ui, sans-serif';
const LABEL_HEIGHT = 18;

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const overlaps = (a: Rect, b: Rect): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Paint the dots (radius by the square root of their share of the most clicked) on a canvas of this
 * size, each with its label (the element's text and its clicks) on a dark tag beside it: right of
 * the dot, left of it at the canvas's right edge, moved down past a label already drawn there;
 * outlined in white, so that it stands out on a dark header as on a light page.
 * Text goes through fillText only.
 */
export function paint(canvas: HTMLCanvasElement, width: number, height: number, dots: Dot[], most: number): void {
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width; // also clears it
    canvas.height = height;
  }
  const paint = canvas.getContext('2d');
  if (!paint) return;
  paint.clearRect(0, 0, width, height);
  const radius = (dot: Dot): number => MIN_RADIUS + (MAX_RADIUS - MIN_RADIUS) * Math.sqrt(dot.count / most);
  for (const dot of dots) {
    const r = radius(dot);
    const gradient = paint.createRadialGradient(dot.x, dot.y, 0, dot.x, dot.y, r);
    gradient.addColorStop(0, 'rgba(220, 30, 30, 0.85)');
    gradient.addColorStop(1, 'rgba(255, 160, 0, 0)');
    paint.fillStyle = gradient;
    paint.beginPath();
    paint.arc(dot.x, dot.y, r, 0, Math.PI * 2);
    paint.fill();
  }
  // labels above every dot, so that no dot covers another's label
  paint.font = LABEL_FONT;
  paint.textBaseline = 'middle';
  const placed: Rect[] = [];
  for (const dot of dots) {
    const text = `${dot.label} \u00b7 ${dot.count}`;
    const w = Math.ceil(paint.measureText(text).width) + 10;
    const gap = Math.max(8, radius(dot) * 0.6);
    const box: Rect = { x: dot.x + gap, y: dot.y - LABEL_HEIGHT / 2, w, h: LABEL_HEIGHT };
    if (box.x + w > width) box.x = Math.max(0, dot.x - gap - w);
    for (let tries = 0; tries < 8 && placed.some((p) => overlaps(p, box)); tries++) box.y += LABEL_HEIGHT + 2;
    placed.push(box);
    paint.fillStyle = 'rgba(29, 29, 31, 0.88)';
    paint.beginPath();
    paint.roundRect?.(box.x, box.y, w, LABEL_HEIGHT, 4);
    if (!paint.roundRect) paint.rect(box.x, box.y, w, LABEL_HEIGHT);
    paint.fill();
    paint.strokeStyle = 'rgba(255, 255, 255, 0.9)'; // seen on a dark header too
    paint.stroke();
    paint.fillStyle = '#fff';
    paint.fillText(text, box.x + 5, box.y + LABEL_HEIGHT / 2);
  }
}

/** The panel's parts that change with the layout. */
export interface Panel {
  section: HTMLElement;
  /** Show what is drawn and what is not (text only). */
  update(layout: Layout): void;
}

/**
 * The panel: a heading whose button opens and closes the lists (a disclosure: `aria-expanded`,
 * Escape closes it and puts the focus back on that button), a button that moves it between the
 * bottom and the top of the screen, and one that closes the overlay. Open at first on a wide
 * screen, closed (one line) on a narrow one, so that it covers little of a phone's screen.
 */
export function createPanel(doc: Document, texts: OverlayTexts, open: boolean, close: () => void): Panel {
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className = ''): HTMLElementTagNameMap[K] => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    return node;
  };
  const section = el('section');
  const bar = el('div', 'bar');
  const heading = el('h2');
  heading.id = 'pagepulse-heatmap-title';
  section.setAttribute('aria-labelledby', heading.id);
  const toggle = el('button', 'toggle');
  toggle.type = 'button';
  toggle.setAttribute('aria-controls', 'pagepulse-heatmap-lists');
  heading.append(toggle);
  const move = el('button', 'icon');
  const shut = el('button', 'icon');
  move.type = shut.type = 'button';
  shut.textContent = '\u00d7';
  shut.setAttribute('aria-label', texts.close);
  shut.title = texts.close;
  bar.append(heading, move, shut);
  const lists = el('div', 'lists');
  lists.id = 'pagepulse-heatmap-lists';
  section.append(bar, lists);

  const setOpen = (value: boolean): void => {
    toggle.setAttribute('aria-expanded', String(value));
    lists.hidden = !value;
  };
  const setTop = (top: boolean): void => {
    section.classList.toggle('top', top);
    move.textContent = top ? '\u2193' : '\u2191';
    move.setAttribute('aria-label', top ? texts.moveDown : texts.moveUp);
    move.title = move.getAttribute('aria-label')!;
  };
  setOpen(open);
  setTop(false);
  toggle.addEventListener('click', () => setOpen(lists.hidden));
  move.addEventListener('click', () => setTop(!section.classList.contains('top')));
  shut.addEventListener('click', close);
  section.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || lists.hidden) return;
    setOpen(false);
    toggle.focus();
  });

  const list = (title: string, id: string, items: Array<[string, number, boolean]>): HTMLElement[] => {
    const h = el('h3');
    h.id = id;
    h.textContent = title;
    const ul = el('ul');
    ul.setAttribute('aria-labelledby', id);
    for (const [text, count, code] of items) {
      const item = el('li');
      const name = el(code ? 'code' : 'span');
      name.textContent = text;
      item.append(name, ` \u2014 ${texts.clicks(count)}`);
      ul.append(item);
    }
    return [h, ul];
  };

  return {
    section,
    update(layout) {
      const drawn = [...layout.page, ...layout.viewport].sort((a, b) => b.count - a.count);
      toggle.textContent = texts.summary(drawn.length, layout.hidden.length);
      lists.replaceChildren(
        ...(drawn.length
          ? list(
              texts.drawnTitle(drawn.length),
              'pagepulse-heatmap-drawn',
              drawn.map((d) => [d.label, d.count, false]),
            )
          : []),
        ...(layout.hidden.length
          ? list(
              texts.hiddenTitle(layout.hidden.length),
              'pagepulse-heatmap-hidden',
              layout.hidden.map((h) => [h.selector, h.count, true]),
            )
          : []),
      );
    },
  };
}
