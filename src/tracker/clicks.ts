import type { Lifetime } from '../platform/lifetime';
import { selectorFor, stateSuffix } from './selector';

/** The analytics component's own limits when the server does not send any (350 x 50). */
export const DEFAULT_MAX_WIDTH = 350;
export const DEFAULT_MAX_HEIGHT = 50;
/** The state input the original heatmap client reads when the page names none. */
export const DEFAULT_STATE_INPUT = '#vs_state';

/** What the click recorder needs. */
export interface ClickRecorderDeps {
  win: Window;
  doc: Document;
  lifetime: Lifetime;
  maxWidth: number;
  maxHeight: number;
  /** Selector of the heatmap state input (`data-state-input`), if configured. */
  stateInput: string | null;
  /** The `stable` selector mode (`data-selectors="stable"`): state classes left out. */
  stable: boolean;
  /** Whether an event path runs through the bundle's own UI. */
  isOwnUi: (path: EventTarget[]) => boolean;
  /** Send one click (keepalive, so it survives a navigation). */
  record: (selector: string) => void;
}

/** jQuery 1.12's pattern for a computed size in a unit other than px. */
const NON_PX = /^([+-]?(?:\d*\.|)\d+(?:[eE][+-]?\d+|))(?!px)[a-z%]+$/i;

/**
 * An element's content width or height exactly as jQuery 1.12's `.width()` / `.height()` measure
 * it (the original's size filter): the offset size minus padding and border, or, where there is
 * no offset size (SVG, empty inline boxes), the computed size. NaN where jQuery would return a
 * non-px text, which no limit test counts as too large.
 */
export function contentSize(element: Element, view: Window, name: 'width' | 'height'): number {
  const styles = view.getComputedStyle(element);
  const px = (property: string): number => parseFloat(styles.getPropertyValue(property)) || 0;
  let value: number | undefined = name === 'width' ? (element as HTMLElement).offsetWidth : (element as HTMLElement).offsetHeight;
  let fromOffset = true;
  if (value == null || value <= 0) {
    const computed = styles.getPropertyValue(name);
    if (NON_PX.test(computed)) return NaN;
    fromOffset = styles.getPropertyValue('box-sizing') === 'border-box';
    value = parseFloat(computed) || 0;
  }
  if (!fromOffset) return value;
  let extra = 0;
  for (const side of name === 'width' ? ['right', 'left'] : ['top', 'bottom']) {
    extra -= px(`padding-${side}`);
    extra -= px(`border-${side}-width`);
  }
  return value + extra;
}

/**
 * One capture-phase listener on the window: it runs before every page handler (also the capture
 * listeners frameworks put on the document), so the selector is taken before the page reacts,
 * and it sees clicks whose handlers stop propagation.
 */
export function startClickRecorder(deps: ClickRecorderDeps): () => void {
  return deps.lifetime.listen(
    deps.win,
    'click',
    (event) => {
      if (deps.isOwnUi(event.composedPath())) return;
      const target = event.target as Node | null;
      const element = target?.nodeType === 1 ? (target as Element) : (target?.parentElement ?? null);
      if (!element || !element.isConnected) return;
      if (contentSize(element, deps.win, 'width') > deps.maxWidth || contentSize(element, deps.win, 'height') > deps.maxHeight)
        return;
      const selector = selectorFor(element, deps.stable);
      if (!selector) return;
      const input = deps.doc.querySelector(deps.stateInput ?? DEFAULT_STATE_INPUT);
      const value = input && 'value' in input ? String((input as HTMLInputElement).value) : '';
      deps.record(selector + stateSuffix(value));
    },
    { capture: true, passive: true },
  );
}
