import type { Lifetime } from './lifetime';

/** Where insertAdjacentHTML puts markup, as the Element method that puts nodes there (both wrapped by watch.ts). */
const PLACES: Record<string, 'before' | 'prepend' | 'append' | 'after'> = {
  beforebegin: 'before',
  afterbegin: 'prepend',
  beforeend: 'append',
  afterend: 'after',
};

/**
 * Markup with an iframe set by another script (the innerHTML and outerHTML setters,
 * insertAdjacentHTML, setHTMLUnsafe; on an HTML element or a shadow root; jQuery's `.html()` is the
 * first), held before it connects: Chromium and Firefox start an iframe's request while such a call
 * connects it, before the observer's records (the lite build before stop 55 sent 77 of 80 such
 * iframes in 20 loads: test/browser/consent-markup.test.ts). The markup is parsed first into a
 * detached element of the context's name and of the context's own document, whose fragment parse is
 * the native call's: it reads the context's name, its document's quirks mode and whether scripting is
 * on there (a `<noscript>` stays text, scripts stay inert), which a template (its own context) or a
 * document of `createHTMLDocument` (no browsing context: scripting off and no quirks, by the HTML
 * standard) would not give. A custom element's name becomes a
 * div's (the parser treats them alike; no constructor of the page's runs). A range takes the nodes
 * out into a fragment, where the blocker puts its placeholder too, and the insertion methods
 * watchInsertions wraps put it in place, showing its elements to the inspectors before they connect.
 * To the native call, untouched (held by the observer, a microtask later): markup without an iframe,
 * a context outside HTML, a `<template>`'s markup (its contents), insertAdjacentHTML's in `<html>`
 * (parsed in a body there), outerHTML's of a child of a document or a plain fragment (the native
 * error). setHTMLUnsafe's that declares shadow roots is parsed by the native method into the box,
 * which makes them there, and their nodes are shown to the inspectors too. Both
 * builds (docs/decisions.md "Blocking"); with the consent blocker only: without it the page's calls
 * stay the browser's own.
 */
export function holdMarkup(win: Window, lifetime: Lifetime): void {
  const page = win as Window & typeof globalThis;
  const proto = page.Element.prototype;
  const set = Object.getOwnPropertyDescriptor(proto, 'innerHTML')!.set!;
  const adjacent = proto.insertAdjacentHTML;
  const unsafe = proto.setHTMLUnsafe;
  // the prototypes' own: a page may have redefined its document's
  const { createElement, createRange } = page.Document.prototype;
  /** A parent's nodes taken out into a fragment. */
  const extract = (parent: Node): DocumentFragment => {
    const range = createRange.call(parent.ownerDocument!);
    range.selectNodeContents(parent);
    return range.extractContents();
  };
  /** `node`'s markup parsed in its context (a shadow root's: its host's) into a fragment, or nothing: the native call. */
  const parsed = (node: Node | null, markup: unknown, declares?: boolean): DocumentFragment | void => {
    const context = (node?.nodeType === 11 ? (node as ShadowRoot).host : node) as Element | null | undefined;
    const name = context?.localName;
    if (context?.namespaceURI === 'http://www.w3.org/1999/xhtml' && name !== 'template' && /<iframe/i.test(markup as string)) {
      const owner = context.ownerDocument;
      /** The shadow roots declared in `tree`, deepest first: their nodes put back through the wrapped replaceChildren. */
      const declared = (tree: ParentNode): void => {
        for (const element of tree.querySelectorAll('*')) {
          const root = element.shadowRoot;
          if (root) {
            declared(root);
            root.replaceChildren(extract(root));
          }
        }
      };
      const box = createElement.call(owner, name!.includes('-') ? 'div' : name!);
      // the markup as given: a TrustedHTML passes the setter where the page enforces Trusted Types;
      // setHTMLUnsafe's that declares shadow roots by the native method, which makes them in the box,
      // where their iframes are shown to the inspectors before they connect
      if (declares) {
        unsafe.call(box, markup as string);
        declared(box);
      } else set.call(box, markup);
      return extract(box);
    }
  };
  /** One markup setter held: innerHTML and setHTMLUnsafe in the node's context, outerHTML in its parent's, in place of it. */
  const hold = (target: object | undefined, name: 'innerHTML' | 'outerHTML' | 'setHTMLUnsafe') => {
    const native = target && Object.getOwnPropertyDescriptor(target, name);
    // a setter, or setHTMLUnsafe's method
    const call = (native?.set ?? native?.value) as ((markup: unknown) => void) | undefined;
    if (!call) return;
    const held = function (this: Element & ShadowRoot, markup: unknown) {
      const outer = name === 'outerHTML';
      const fragment = parsed(
        outer ? this.parentNode : this,
        markup,
        name === 'setHTMLUnsafe' && /shadowrootmode/i.test(markup as string),
      );
      if (!fragment) call.call(this, markup);
      else if (outer) this.replaceWith(fragment);
      else this.replaceChildren(fragment);
    };
    Object.defineProperty(target, name, { ...native, [native!.set ? 'set' : 'value']: held });
    lifetime.add(() => Object.defineProperty(target, name, native!));
  };
  for (const target of [proto, page.ShadowRoot?.prototype]) {
    hold(target, 'innerHTML');
    hold(target, 'setHTMLUnsafe');
  }
  hold(proto, 'outerHTML');
  proto.insertAdjacentHTML = function (this: Element, where: InsertPosition, markup: string) {
    const place = PLACES[String(where).toLowerCase()];
    // beside: the parent's context (none, a document: the native call's error); in: this one, but a body's for <html>
    const fragment =
      place &&
      (place === 'before' || place === 'after'
        ? parsed(this.parentNode, markup)
        : this.localName !== 'html' && parsed(this, markup));
    if (fragment) this[place!](fragment);
    else adjacent.call(this, where, markup);
  };
  lifetime.add(() => {
    proto.insertAdjacentHTML = adjacent;
  });
  // document.write and writeln: a script or iframe written while the page parses is made and prepared
  // by the parser inside the call, before any observer record (a written vendor script ran before a choice
  // in every load, in every engine). The markup is parsed first into a detached div of the document and
  // its scripts and iframes shown to the inspectors through the wrapped replaceChildren; each of their
  // start tags is written as the serializer writes it after them (a held one: `type="text/plain"`, the
  // address as `data-src`; another: the same attributes, quoted), every other byte as given, so the
  // parser makes a held one inert and the observer takes it as blocked markup. Markup without such a
  // tag, start tags that do not pair up with the parsed elements (one in a comment, in a script's
  // text), a TrustedHTML the page's policy must pass: the native call with the arguments as given
  const documents = page.Document.prototype;
  const TAGS = /<(script|iframe)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
  /** An element's start tag as the serializer writes it. */
  const start = (element: Element): string => {
    const html = (element.cloneNode() as Element).outerHTML;
    return html.slice(0, html.lastIndexOf('</'));
  };
  for (const name of ['write', 'writeln'] as const) {
    const native = documents[name];
    documents[name] = function (this: Document, ...parts: string[]) {
      try {
        const markup = parts.join('');
        const tags = markup.match(TAGS);
        if (tags) {
          const box = createElement.call(this, 'div');
          set.call(box, markup);
          const found = box.querySelectorAll('script,iframe');
          if (found.length === tags.length) {
            box.replaceChildren(extract(box));
            let i = 0;
            parts = [markup.replace(TAGS, () => start(found[i++]!))];
          }
        }
      } catch {
        // the native call below
      }
      return native.apply(this, parts);
    };
    lifetime.add(() => {
      documents[name] = native;
    });
  }
}
