import { labelOf } from './label';
import type { Target } from './layout';

/** A stored selector and its clicks, as the collector lists them. */
export interface Stored {
  selector: string;
  count: number;
}

/**
 * The stored selectors that name an element of the page now, each with its element's label. One
 * that names none (a selector of another page layout, or of an element not made yet) is left out.
 */
export function resolve(doc: Document, stored: Stored[]): Target[] {
  const targets: Target[] = [];
  for (const { selector, count } of stored) {
    const element = find(doc, selector) ?? find(doc, withoutState(selector));
    if (element) targets.push({ selector, element, count, label: labelOf(element) });
  }
  return targets;
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
