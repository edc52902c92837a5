// The React build's stand-in for the `react-dom` entry (build/react-dom-internals.ts resolves react-dom/client's
// `require("react-dom")` here). react-dom/client reads only the shared internals from it and our
// views only `flushSync` (below, react-dom's own 10 lines); the entry's other exports (createPortal,
// preload...) are code our views never call. Same
// object as react-dom.production.js builds; the build fails if that file's shape changes.

function noop(): void {}

/** react-dom's internals: client's dispatcher replaces `d`, `p` is the update priority. */
export const __DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE = {
  d: {
    f: noop,
    r(): never {
      // as react-dom's requestFormReset outside a form action (its error 522)
      throw Error(
        'Minified React error #522; visit https://react.dev/errors/522 for the full message or use the non-minified dev environment for full errors and additional helpful warnings.',
      );
    },
    D: noop,
    C: noop,
    L: noop,
    m: noop,
    X: noop,
    S: noop,
    M: noop,
  },
  p: 0,
  findDOMNode: null,
};

/**
 * react-dom's flushSync, for the views' first render (src/ui/react-root.tsx): the update is given
 * the discrete-event priority (2) and flushed before returning, so the banner is in the page while
 * the bundle's script still runs. As react-dom.production.js, without its transition reset (the
 * views start no transitions).
 */
export function flushSync(fn: () => void): void {
  const internals = __DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
  const previous = internals.p;
  try {
    internals.p = 2;
    fn();
  } finally {
    internals.p = previous;
    internals.d.f();
  }
}
