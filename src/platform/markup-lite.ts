import type { Lifetime } from './lifetime';
import { PLACES } from './watch';

/**
 * The lite build's hold on markup with an iframe that another script sets (an element's innerHTML,
 * insertAdjacentHTML; jQuery's `.html()` is the first). Chromium starts an iframe's request while
 * such a call connects it, before the observer's records: most loads sent one to the vendor before a
 * choice (test/browser/consent-markup.test.ts). Here the markup is parsed first into a detached
 * element of the context's name and document, whose fragment parse is the native call's (it reads
 * the context's name, its document's quirks mode and whether scripting is on there: a `<noscript>`
 * stays text, scripts stay inert), and the nodes go in by the wrapped insertion methods, which show
 * them to the inspectors before they are connected. A custom element's name becomes a div's (the
 * parser treats them alike; no constructor of the page's runs). Smaller than the React build's
 * `holdMarkup` (a template parses in its own context, so that needs a table of the others): a
 * shadow root's innerHTML too (in its host's context), but no outerHTML or setHTMLUnsafe, which the
 * observer holds a microtask later, outside shadow roots (docs/decisions.md "Blocking"). A `<template>`'s markup (its contents) goes to the native call, and
 * so does insertAdjacentHTML's on `<html>` (parsed in a body there).
 */
export function holdMarkupLite(win: Window, lifetime: Lifetime): void {
  const proto = (win as Window & typeof globalThis).Element.prototype;
  const native = Object.getOwnPropertyDescriptor(proto, 'innerHTML')!;
  const set = native.set!;
  const adjacent = proto.insertAdjacentHTML;
  /**
   * Markup with an iframe, parsed under an HTML element like `context`: its nodes in a fragment
   * (taken out by a range: no insertion method of the page's), where an inspector that holds an iframe
   * puts its placeholder too
   */
  const parsed = (context: Node | null, markup: unknown): DocumentFragment | void => {
    const name = (context as Element | null)?.localName;
    if (
      (context as Element | null)?.namespaceURI === 'http://www.w3.org/1999/xhtml' &&
      name !== 'template' &&
      /<iframe/i.test(markup as string)
    ) {
      const owner = context!.ownerDocument!;
      const box = owner.createElement(name!.includes('-') ? 'div' : name!);
      // the markup as given: a TrustedHTML passes the setter where the page enforces Trusted Types
      set.call(box, markup);
      const range = owner.createRange();
      range.selectNodeContents(box);
      return range.extractContents();
    }
  };
  // an element's innerHTML, and a shadow root's (parsed in its host's context)
  const roots = (win as Window & typeof globalThis).ShadowRoot.prototype;
  const rootNative = Object.getOwnPropertyDescriptor(roots, 'innerHTML')!;
  for (const [target, own] of [
    [proto, native],
    [roots, rootNative],
  ] as const)
    Object.defineProperty(target, 'innerHTML', {
      ...own,
      set(this: Element & ShadowRoot, markup: unknown) {
        const nodes = parsed(this.nodeType === 11 ? this.host : this, markup);
        if (nodes) this.replaceChildren(nodes);
        else own.set!.call(this, markup);
      },
    });
  proto.insertAdjacentHTML = function (this: Element, where: InsertPosition, markup: string) {
    const place = PLACES[String(where).toLowerCase()];
    // beside: the parent's context (none, a document: the native call's error); in: this one, but a body's for <html>
    const nodes =
      place &&
      (place === 'before' || place === 'after'
        ? parsed(this.parentNode, markup)
        : this.localName !== 'html' && parsed(this, markup));
    if (nodes) this[place!](nodes);
    else adjacent.call(this, where, markup);
  };
  lifetime.add(() => {
    Object.defineProperty(proto, 'innerHTML', native);
    Object.defineProperty(roots, 'innerHTML', rootNative);
    proto.insertAdjacentHTML = adjacent;
  });
}
