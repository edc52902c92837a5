// The overlay panel's texts in the admin area's two languages. Kept in the overlay's own file: the
// visitor's bundle carries none of them.
import type { Lang } from '../../i18n';

export interface OverlayTexts {
  /** The panel's toggle: dots drawn and selectors without a box. */
  summary(drawn: number, hidden: number): string;
  drawnTitle(count: number): string;
  hiddenTitle(count: number): string;
  clicks(count: number): string;
  moveUp: string;
  moveDown: string;
  close: string;
  canvas(count: number): string;
  fixedCanvas(count: number): string;
}

const de: OverlayTexts = {
  summary: (drawn, hidden) =>
    `Heatmap: ${drawn} ${drawn === 1 ? 'Punkt' : 'Punkte'}${hidden ? `, ${hidden} nicht gezeichnet` : ''}`,
  drawnTitle: (count) => `Gezeichnet (${count})`,
  hiddenTitle: (count) => `Nicht gezeichnet: kein sichtbares Element auf dieser Seite (${count})`,
  clicks: (count) => `${count} ${count === 1 ? 'Klick' : 'Klicks'}`,
  moveUp: 'Nach oben schieben',
  moveDown: 'Nach unten schieben',
  close: 'Heatmap schließen',
  canvas: (count) => `Heatmap: ${count} Punkte auf der Seite`,
  fixedCanvas: (count) => `Heatmap: ${count} Punkte auf festen und klebenden Elementen`,
};

const en: OverlayTexts = {
  summary: (drawn, hidden) => `Heatmap: ${drawn} ${drawn === 1 ? 'dot' : 'dots'}${hidden ? `, ${hidden} not drawn` : ''}`,
  drawnTitle: (count) => `Drawn (${count})`,
  hiddenTitle: (count) => `Not drawn: no box on this page (${count})`,
  clicks: (count) => `${count} ${count === 1 ? 'click' : 'clicks'}`,
  moveUp: 'Move to the top',
  moveDown: 'Move to the bottom',
  close: 'Close the heatmap',
  canvas: (count) => `Heatmap: ${count} dots on the page`,
  fixedCanvas: (count) => `Heatmap: ${count} dots on fixed and sticky elements`,
};

/**
 * The language the admin area asked for (`#pagepulse-heatmap=de`, `=en`: docs/collector.md), else
 * the bundle's configured language.
 */
export function overlayTexts(hash: string, configured: Lang): OverlayTexts {
  const asked = /^#pagepulse-heatmap=(de|en)$/.exec(hash)?.[1];
  return (asked ?? configured) === 'en' ? en : de;
}
