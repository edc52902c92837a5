// What it edits: the module resolution of `react-dom` in the React build. Why: react-dom/client
// needs only the shared internals object of the `react-dom` entry, and our views only its
// `flushSync`; the stand-in src/ui/react-dom-internals.ts gives both without the rest of the
// entry. Two modules may import `react-dom`: react-dom/client's production file and
// src/ui/react-root.tsx. Any other importer fails the build: it would silently get the real entry
// and with it a SECOND internals object, one react-dom/client never updates (eslint's
// no-restricted-imports says the same for src/). The build also fails when react-dom's internals
// object no longer has the shape the stand-in copies.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The two importers of `react-dom` the stand-in is made for. */
const ALLOWED = /react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$|[\\/]src[\\/]ui[\\/]react-root\.tsx$/;

/**
 * react-dom/client needs only the shared internals object of the `react-dom` entry, and our views
 * only its `flushSync` (src/ui/react-root.tsx); the rest of the entry's public API (portals,
 * resource hints: 3.5 KB raw) is code nothing here calls. Resolve react-dom/client's
 * `require("react-dom")` and the views' `react-dom` to src/ui/react-dom-internals.ts instead. The build
 * fails when react-dom's internals object no longer has the shape the stand-in copies.
 */
export function reactDomInternals(): Plugin {
  const expected = `var Internals = {
    d: {
      f: noop,
      r: function () {
        throw Error(formatProdErrorMessage(522));
      },
      D: noop,
      C: noop,
      L: noop,
      m: noop,
      X: noop,
      S: noop,
      M: noop
    },
    p: 0,
    findDOMNode: null
  },`;
  const standIn = fileURLToPath(new URL('../src/ui/react-dom-internals.ts', import.meta.url));
  return {
    name: 'pagepulse-react-dom-internals',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'react-dom') return null;
      // react-dom/client's internals, and the views' flushSync (src/ui/react-root.tsx); nobody else
      if (!importer || !ALLOWED.test(importer))
        this.error(
          `${importer ?? 'the entry'} imports react-dom: only react-dom/client's production file and src/ui/react-root.tsx may ` +
            '(the stand-in src/ui/react-dom-internals.ts is their one internals object)',
        );
      const entry = fileURLToPath(new URL('../node_modules/react-dom/cjs/react-dom.production.js', import.meta.url));
      if (!readFileSync(entry, 'utf8').includes(expected))
        this.error(`react-dom changed: its internals object in ${entry} no longer matches src/ui/react-dom-internals.ts`);
      return standIn;
    },
  };
}
