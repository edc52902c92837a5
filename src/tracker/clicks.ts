import type { Lifetime } from '../platform/lifetime';
import { selectorFor, stateSuffix } from './selector';

/** The analytics component's own limits when the server does not send any (350 x 50). */
export const DEFAULT_MAX_WIDTH = 350;
export const DEFAULT_MAX_HEIGHT = 50;

/** What the click recorder needs. */
export interface ClickRecorderDeps {
  doc: Document;
  lifetime: Lifetime;
  maxWidth: number;
  maxHeight: number;
  /** Selector of the heatmap state input, if configured. */
  stateInput: string | null;
  /** Whether an event path runs through the bundle's own UI. */
  isOwnUi: (path: EventTarget[]) => boolean;
  /** Send one click (keepalive, so it survives a navigation). */
  record: (selector: string) => void;
}

/**
 * One delegated capture-phase listener on the document: it sees every click, even those whose
 * handlers stop propagation, and it costs one listener however large the page.
 */
export function startClickRecorder(deps: ClickRecorderDeps): () => void {
  return deps.lifetime.listen(
    deps.doc,
    'click',
    (event) => {
      const path = event.composedPath();
      if (deps.isOwnUi(path)) return;
      const target = event.target;
      const element = target instanceof Element ? target : (target as Node | null)?.parentElement;
      if (!element || !element.isConnected) return;
      const box = element.getBoundingClientRect();
      if (box.width > deps.maxWidth || box.height > deps.maxHeight) return;
      let suffix = '';
      if (deps.stateInput) {
        const input = deps.doc.querySelector(deps.stateInput);
        if (input && 'value' in input) suffix = stateSuffix(String((input as HTMLInputElement).value));
      }
      deps.record(selectorFor(element) + suffix);
    },
    { capture: true, passive: true },
  );
}
