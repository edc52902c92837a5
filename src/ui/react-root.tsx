import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import baseCss from './base.css?inline';
import { findOrCreateSurface } from './mount';

/**
 * Render a React tree into `<pagepulse-NAME>`'s open shadow root, styled with the base sheet and
 * `css`. Returns the teardown: unmount, remove the listeners React put on the document, remove
 * the host element.
 */
export function mountReactSurface(doc: Document, name: string, css: string, tree: ReactNode): () => void {
  const surface = findOrCreateSurface(doc, name, baseCss + css);
  // preact (the lite build) puts no listener on the document: nothing to capture there
  const [root, removeListeners] =
    __PAGEPULSE_BUILD__ === 'lite'
      ? [createRoot(surface.container), () => {}]
      : withDocumentListeners(doc, () => createRoot(surface.container));
  // the first render now, not in a scheduled task: a first visit's banner is in the page before
  // the parser goes on (docs/decisions.md "Start-up order"); later updates are scheduled as usual
  flushSync(() => root.render(tree));
  return () => {
    root.unmount();
    removeListeners();
    surface.host.remove();
  };
}

/**
 * Run `create` (a createRoot call) and return, with its result, a teardown for the listeners it
 * added to the document. React registers a `selectionchange` listener on the root's document and
 * never removes it; capturing it here is what lets destroy() leave no listener behind.
 */
function withDocumentListeners<T>(doc: Document, create: () => T): [T, () => void] {
  const added: Array<[string, EventListenerOrEventListenerObject, boolean | AddEventListenerOptions | undefined]> = [];
  const own = Object.getOwnPropertyDescriptor(doc, 'addEventListener');
  const original = doc.addEventListener;
  doc.addEventListener = function (
    this: Document,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (listener) added.push([type, listener, options]);
    return original.call(this, type, listener as EventListenerOrEventListenerObject, options);
  } as Document['addEventListener'];
  try {
    return [create(), () => added.forEach(([type, listener, options]) => doc.removeEventListener(type, listener, options))];
  } finally {
    if (own) Object.defineProperty(doc, 'addEventListener', own);
    else delete (doc as unknown as Record<string, unknown>).addEventListener;
  }
}
