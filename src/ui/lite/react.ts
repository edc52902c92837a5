import { createElement, options, type VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * What the views take from `react`, for the lite build (vite aliases `react` here in lite mode):
 * preact's core and hooks without preact/compat, which costs ~2.5 KB gzip for class components,
 * Suspense, portals and event names the views never use. The one difference the views rely on is
 * React's bubbling `onFocus`/`onBlur`, mapped to `focusin`/`focusout` below as compat does.
 */
export { createElement, useEffect, useRef, useState };
export type { VNode as ReactNode };

/** React's focus props bubble; the DOM's focus/blur events do not. */
const BUBBLING: Record<string, string> = { onFocus: 'onfocusin', onBlur: 'onfocusout' };

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  if (typeof vnode.type === 'string') {
    const props = vnode.props as Record<string, unknown>;
    for (const name in BUBBLING) {
      if (!Object.prototype.hasOwnProperty.call(props, name)) continue;
      props[BUBBLING[name]!] = props[name];
      delete props[name];
    }
  }
  previous?.(vnode);
};

/**
 * The component preact is rendering: its `_render` option (`__r`, the name preact's own build
 * gives it, renamed with its other internals in the bundle) is called with each component's vnode
 * right before the component runs; `__c` is the vnode's component.
 */
let rendering: Rendered | undefined;
/** What the hook calls on that component: preact's setState, which queues its render. */
interface Rendered {
  setState(state: object): void;
}
const hooks = options as unknown as { __r?: (vnode: { __c: Rendered }) => void };
const previousRender = hooks.__r;
hooks.__r = (vnode) => {
  rendering = vnode.__c;
  previousRender?.(vnode);
};

/**
 * React's useSyncExternalStore for stores whose snapshot changes identity only on change. A change
 * re-renders the component with its `setState({})`, which is what a state hook's setter calls when
 * the state changed (`useState(0)` bumped by one before: the same render, queued the same way,
 * without preact's state hook, which the lite bundle's views then no longer call: round 8).
 */
export function useSyncExternalStore<T>(subscribe: (listener: () => void) => () => void, get: () => T): T {
  const value = get();
  const seen = useRef(value);
  seen.current = value;
  const component = rendering!;
  useLayoutEffect(() => {
    const check = (): void => {
      if (!Object.is(seen.current, get())) component.setState({});
    };
    const off = subscribe(check);
    check(); // a change between render and subscribe
    return off;
  }, [subscribe, get]);
  return value;
}
