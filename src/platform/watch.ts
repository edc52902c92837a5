import type { Lifetime } from './lifetime';

/**
 * Looks at one element entering the page, or about to; `existing`: it was there when it was added.
 * Answers true when it holds the element (an iframe's address is then kept from it: `frames`).
 */
export type Inspector = (element: Element, existing: boolean) => boolean | void;

/** Every element that enters the page, handed to the inspectors whose selector it matches. */
export interface InsertionWatch {
  /** Add an inspector for `selector`; it is shown the matching elements already in the page at once. */
  add(selector: string, inspect: Inspector): void;
}

/** What the watch needs: the page's own constructors (a strict page may not have them on globalThis). */
export interface WatchDeps {
  win: Window;
  doc: Document;
  lifetime: Lifetime;
  onError(error: unknown): void;
  /**
   * With the consent blocker: an address given to an iframe in the page is inspected before it loads,
   * and the watch goes into the page's friendly iframes, its own without an address of their own
   * (`realm`: what else such a window gets then, the markup hold).
   */
  frames?: boolean;
  realm?(win: Window): void;
}

/** The insertion methods of Node and Element that take nodes to put into the page (split strings: fewer bytes). */
const NODE_METHODS = 'appendChild insertBefore replaceChild'.split(' ');
const ELEMENT_METHODS = 'append prepend before after replaceWith insertAdjacentElement replaceChildren'.split(' ');

/**
 * Watch insertions two ways (docs/decisions.md "Blocking"): what other scripts insert is shown to
 * the inspectors BEFORE it is connected, by wrapping the DOM's insertion methods (a script is
 * prepared and an iframe starts loading the moment they are inserted, so an observer would be late);
 * what the parser inserts, and what `innerHTML` and the like add, by a MutationObserver, whose
 * records the parser delivers before it runs a script. A `src` set later on an element already in
 * the page is seen by the observer too, a microtask after it was set.
 */
export function watchInsertions({ win, doc, lifetime, onError, frames, realm }: WatchDeps): InsertionWatch {
  /**
   * An iframe of the page's own without an address of its own (none, `about:` or `javascript:`: a
   * "friendly iframe", the loaders of Zendesk's and Olark's widgets, ad tags) is a window of the page's
   * origin with its own DOM methods, which the wrappers below are not: a vendor script appended or
   * written into its document ran before a choice (test/browser/consent-frames.test.ts). Each such
   * iframe is watched as the page is from the moment it is seen in a document or a script asks for its
   * window or document (its `contentWindow` and `contentDocument`): its insertion methods wrapped, its
   * document observed, `realm` (the markup hold) given its window. An iframe with an address or
   * `srcdoc` loads a document of its own (another origin's: out of reach).
   */
  const pending: Element[] = [];
  const inspectors: Array<[string, Inspector]> = frames
    ? [['iframe:not([data-src],[srcdoc])', (frame) => void pending.push(frame)]]
    : [];

  /** Show `node` and its descendants to the inspectors; answers whether one holds `node` itself. */
  const inspectTree = (node: unknown, existing: boolean, only?: [string, Inspector]): boolean => {
    let held = false;
    const type = (node as Node | null)?.nodeType;
    if (type !== 1 && type !== 11) return held;
    for (const [selector, inspect] of only ? [only] : inspectors) {
      try {
        if (type === 1 && (node as Element).matches(selector) && inspect(node as Element, existing)) held = true;
        for (const element of (node as ParentNode).querySelectorAll(selector)) inspect(element, existing);
      } catch (error) {
        onError(error);
      }
    }
    return held;
  };

  /** The windows watched (and those of another origin, left), by their WindowProxy. */
  const realms = new WeakSet<Window>();
  // the page's own getter: a window's wrapped one calls this
  const windowOf = Object.getOwnPropertyDescriptor(
    (win as Window & typeof globalThis).HTMLIFrameElement.prototype,
    'contentWindow',
  )!.get!;
  const enterFrame = (frame: Element): void => {
    try {
      const src = frame.getAttribute('src');
      const inner = windowOf.call(frame) as (Window & typeof globalThis) | null;
      if (!inner || realms.has(inner) || (src && !/^\s*(about|javascript):/i.test(src)) || frame.hasAttribute('srcdoc')) return;
      realms.add(inner);
      enter(inner, inner.document);
    } catch {
      // no window of ours: another origin's document throws, and so does the getter on an element
      // named iframe outside HTML (in SVG markup, createElementNS), which the selector matches too
    }
  };
  /** The iframes seen since the last call, each watched once it has a window (no array made when none: every insertion calls this). */
  const enterFrames = (): void => {
    for (let frame; (frame = pending.shift());) enterFrame(frame);
  };

  // the page's global scope: Window's type lacks the constructors patched and used here
  const page = win as Window & typeof globalThis;
  /** `name` of `proto` wrapped: its nodes shown first; `document`: the document it is called on observed first (open, write). */
  const wrap = (proto: Record<string, unknown>, name: string, document?: boolean): void => {
    const original = proto[name] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== 'function') return;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      for (const arg of args) inspectTree(arg, false);
      if (document) observer.observe(this as Node, options);
      const result = original.apply(this, args);
      enterFrames();
      return result;
    };
    proto[name] = wrapped;
    lifetime.add(() => {
      if (proto[name] === wrapped) proto[name] = original;
    });
  };
  const options: MutationObserverInit = { childList: true, subtree: true, attributeFilter: ['src'] };
  const roots = new WeakSet<Node>();
  /**
   * An open shadow root on an element that entered the page, watched like the document: one the
   * page's markup declares (`<template shadowrootmode>`) is made and parsed into by the parser,
   * where neither the wrapped methods nor the document's observer see it (a vendor script in it ran
   * before a choice, its iframes loaded). Its elements are shown now, the roots declared in it too,
   * and what the parser adds to it later by the observer. A closed root is out of reach.
   */
  const watchRoot = (root: ShadowRoot | null | undefined): void => {
    if (!root || roots.has(root)) return;
    roots.add(root);
    observer.observe(root, options);
    inspectTree(root, false);
    for (const element of root.querySelectorAll('*')) watchRoot(element.shadowRoot);
  };
  const observer = new page.MutationObserver((records: MutationRecord[]) => {
    // into the set directly (scripts/bench/watch-batch.ts, 2,161 records at 4x: 6 to 8 ms, a NodeList
    // spread per record 10 to 12; an index loop 2.6, for 13 B of gzip the lite build does not have)
    const batch = new Set<Node | null>();
    for (const record of records)
      for (const node of record.type === 'attributes' ? [record.target] : record.addedNodes) batch.add(node);
    // the parser adds an element and then each of its descendants, a record each: a node whose
    // parent is in this batch too is in that parent's subtree query already
    for (const node of batch) {
      if (!batch.has(node!.parentNode)) inspectTree(node, false);
      watchRoot((node as Element).shadowRoot);
    }
    enterFrames();
  });
  /** Watch a window of the page's origin (the page's own first, then each friendly iframe's): its methods, its document. */
  const enter = (w: Window & typeof globalThis, root: Node): void => {
    for (const name of NODE_METHODS) wrap(w.Node.prototype as unknown as Record<string, unknown>, name);
    for (const name of ELEMENT_METHODS) wrap(w.Element.prototype as unknown as Record<string, unknown>, name);
    // a fragment's append, prepend and replaceChildren too (a shadow root is a fragment; it has no
    // before, after...: wrap passes those by), and a range's insertNode (it puts the node it is given
    // into the page): both builds (26 B gzip in the lite build)
    for (const name of ELEMENT_METHODS) wrap(w.DocumentFragment.prototype as unknown as Record<string, unknown>, name);
    wrap(w.Range.prototype as unknown as Record<string, unknown>, 'insertNode');
    // with the consent blocker (both builds; the lite build since stop 55): an address given to an
    // iframe already in the page (made without one, or held, and then given one by a script or a lazy
    // loader; in a shadow root too) is shown to the inspectors as its `data-src` before the frame
    // navigates, and a frame they hold never gets it. The observer saw it a microtask after the setter,
    // when the request had often left (engine scenario page: Chromium 5 of 5 loads, Firefox 2 of 5)
    if (frames) {
      const proto = w.HTMLIFrameElement.prototype;
      // a friendly iframe is watched before a script uses its window or document, whenever it was made
      for (const name of ['contentWindow', 'contentDocument']) {
        const native = Object.getOwnPropertyDescriptor(proto, name)!;
        Object.defineProperty(proto, name, {
          ...native,
          get(this: Element) {
            enterFrame(this);
            return native.get!.call(this);
          },
        });
        lifetime.add(() => Object.defineProperty(proto, name, native));
      }
      const src = Object.getOwnPropertyDescriptor(proto, 'src')!;
      const element = w.Element.prototype;
      const setAttribute = element.setAttribute;
      const before = (frame: Element, value: unknown, go: () => void): void => {
        if (!frame.isConnected) return go();
        const old = frame.getAttribute('data-src');
        const was = frame.getAttribute('src');
        setAttribute.call(frame, 'data-src', String(value));
        if (inspectTree(frame, false)) return;
        if (old === null) frame.removeAttribute('data-src');
        else setAttribute.call(frame, 'data-src', old);
        // an inspector that let it load has set it already
        if (frame.getAttribute('src') === was) go();
      };
      Object.defineProperty(proto, 'src', {
        ...src,
        set(this: Element, value: unknown) {
          before(this, value, () => src.set!.call(this, value));
        },
      });
      const wrapped = function (this: Element, name: string, value: string): void {
        if (this.localName === 'iframe' && String(name).toLowerCase() === 'src')
          before(this, value, () => setAttribute.call(this, name, value));
        else setAttribute.call(this, name, value);
      };
      element.setAttribute = wrapped;
      lifetime.add(() => {
        Object.defineProperty(proto, 'src', src);
        if (element.setAttribute === wrapped) element.setAttribute = setAttribute;
      });
    }
    observer.observe(root, options);
    // a friendly iframe's document: Chromium replaces the one a parsed iframe has when the observer is
    // told of it with another before the next script runs (the window stays), so the one a script opens or
    // writes into is observed then too; what the writes make is shown to the inspectors as the page's is
    if (root.nodeType === 9)
      for (const name of ['open', 'write', 'writeln'])
        wrap(w.Document.prototype as unknown as Record<string, unknown>, name, true);
    realm?.(w);
  };
  enter(page, doc.documentElement);
  lifetime.add(() => observer.disconnect());
  // the friendly iframes already in the page (a tag in the body, the bookmarklet)
  if (frames) {
    inspectTree(doc.documentElement, true, inspectors[0]);
    enterFrames();
  }

  return {
    add(selector, inspect) {
      const entry: [string, Inspector] = [selector, inspect];
      inspectors.push(entry);
      inspectTree(doc.documentElement, true, entry);
    },
  };
}
