// What it edits: the module resolution of `react-dom` in the React build. Why: react-dom/client
// needs only the shared internals object of the `react-dom` entry, and our views only its
// `flushSync`; the stand-in src/ui/react-dom-internals.ts gives both without the rest of the
// entry. Two modules may import `react-dom`: react-dom/client's production file and
// src/ui/react-root.tsx. Any other importer fails the build: it would silently get the real entry
// and with it a SECOND internals object, one react-dom/client never updates (eslint's
// no-restricted-imports says the same for src/). The build also fails, naming file and anchor, when
// react-dom's internals object or flushSync no longer has the text the stand-in copies, or
// react-dom/client reads another name from `react-dom` (build/pinned.ts). And text edits of
// react-dom/client (REACT_DOM_CLIENT_EDITS), each of code this bundle never runs: the view
// transitions' four browser messages (99 B of gzip), the internals' findDOMNode, the hydration
// root's unstable_scheduleHydration and the dispatcher's form reset and resource hints (1,270 B),
// the methods of Fragment refs and view-transition pseudo-elements (2,208 B; the views may import
// only build/react-esm.ts's USED names from React, so they can render neither).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { checkAnchors, type Anchor } from './pinned.ts';

/** The two importers of `react-dom` the stand-in is made for. */
const ALLOWED = /react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$|[\\/]src[\\/]ui[\\/]react-root\.tsx$/;

const nodeModule = (path: string): string => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

/** react-dom/client's production file, wherever the bundler found it. */
const CLIENT_FILE = /react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/;

/** The file's real path (the bundler's module id: a symlinked node_modules resolves through), else the path. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** What src/ui/react-dom-internals.ts copies from react-dom.production.js. */
export const REACT_DOM_ANCHORS: Anchor[] = [
  {
    name: 'the internals object',
    text: `var Internals = {
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
  },`,
  },
  {
    name: 'flushSync',
    text: `exports.flushSync = function (fn) {
  var previousTransition = ReactSharedInternals.T,
    previousUpdatePriority = Internals.p;
  try {
    if (((ReactSharedInternals.T = null), (Internals.p = 2), fn)) return fn();
  } finally {
    (ReactSharedInternals.T = previousTransition),
      (Internals.p = previousUpdatePriority),
      Internals.d.f();
  }
};`,
  },
];

/**
 * react-dom/client's view transitions: an InvalidStateError of `document.startViewTransition` is
 * dropped when its message is one of four browser texts (about 260 B raw, 99 B of gzip). React starts
 * a view transition only for a `<ViewTransition>` in the tree (shouldStartViewTransition, fiber tag
 * 30), and our views have none: the transform below drops every InvalidStateError there
 * instead, in code this bundle never runs.
 */
const VIEW_TRANSITION_FILTER = `                if (
                  "View transition was skipped because document visibility state is hidden." ===
                    error.message ||
                  "Skipping view transition because document visibility state has become hidden." ===
                    error.message ||
                  "Skipping view transition because viewport size changed." ===
                    error.message ||
                  "Transition was aborted because of invalid state" ===
                    error.message
                )
                  error = null;`;

/**
 * react-dom/client sets `findDOMNode` on the internals object it shares with the `react-dom` entry, for
 * the entry's old findDOMNode: React 19's entry no longer exports one, and our stand-in exports none
 * (nothing in the bundle reads the property). The function and the fiber walks only it calls
 * (findCurrentFiberUsingSlowPath, findCurrentHostFiberImpl): 353 B of gzip.
 */
const FIND_DOM_NODE = `ReactDOMSharedInternals.findDOMNode = function (componentOrElement) {
  var fiber = componentOrElement._reactInternals;
  if (void 0 === fiber) {
    if ("function" === typeof componentOrElement.render)
      throw Error(formatProdErrorMessage(188));
    componentOrElement = Object.keys(componentOrElement).join(",");
    throw Error(formatProdErrorMessage(268, componentOrElement));
  }
  componentOrElement = findCurrentFiberUsingSlowPath(fiber);
  componentOrElement =
    null !== componentOrElement
      ? findCurrentHostFiberImpl(componentOrElement)
      : null;
  componentOrElement =
    null === componentOrElement ? null : componentOrElement.stateNode;
  return componentOrElement;
};
`;

/**
 * A method of the root hydrateRoot returns (ReactDOMHydrationRoot); hydrateRoot is not in the bundle
 * (unused, tree-shaken), so no such root is ever made: 64 B of gzip.
 */
const SCHEDULE_HYDRATION = `ReactDOMHydrationRoot.prototype.unstable_scheduleHydration = function (target) {
  if (target) {
    var updatePriority = resolveUpdatePriority();
    target = { blockedOn: null, target: target, priority: updatePriority };
    for (
      var i = 0;
      i < queuedExplicitHydrationTargets.length &&
      0 !== updatePriority &&
      updatePriority < queuedExplicitHydrationTargets[i].priority;
      i++
    );
    queuedExplicitHydrationTargets.splice(i, 0, target);
    0 === i && attemptExplicitHydrationTarget(target);
  }
};
`;

/**
 * The dispatcher react-dom/client puts on the shared internals: besides `f` (flushSync, which the
 * stand-in calls) it carries `r` (requestFormReset) and the resource hints (`D` prefetchDNS, `C`
 * preconnect, `L` preload, `m` preloadModule, `X` preinitScript, `S` preinitStyle, `M`
 * preinitModuleScript), which only the `react-dom` entry's public functions of those names call;
 * the stand-in exports none of them, and react-dom/client reads them only from the dispatcher it
 * replaced. Kept: `f`. 848 B of gzip (the hint functions and the resource code only they reach).
 */
const DISPATCHER = `ReactDOMSharedInternals.d = {
  f: flushSyncWork,
  r: requestFormReset,
  D: prefetchDNS,
  C: preconnect,
  L: preload,
  m: preloadModule,
  X: preinitScript,
  S: preinitStyle,
  M: preinitModuleScript
};`;

/**
 * The methods of the objects react-dom/client hands to a ref on a `<Fragment>` (FragmentInstance:
 * its listeners, focus, observers, rects, scrolling) and of a `<ViewTransition>`'s pseudo-elements
 * (ViewTransitionPseudoElement). Our views render neither: they may import from React only the
 * names build/react-esm.ts lists (USED, without Fragment or ViewTransition), and a module importing
 * another fails the build (reactImportProblem). Each `X.prototype.name = function` becomes
 * `void function`, an expression the minifier drops with every helper only it called; the
 * constructors stay. 2,208 B of gzip, nearly all of it the fragment refs.
 */
const UNUSED_METHODS: Record<string, string[]> = {
  ViewTransitionPseudoElement: ['animate', 'getAnimations', 'getComputedStyle'],
  FragmentInstance: [
    'addEventListener',
    'removeEventListener',
    'dispatchEvent',
    'focus',
    'focusLast',
    'blur',
    'observeUsing',
    'unobserveUsing',
    'getClientRects',
    'getRootNode',
    'compareDocumentPosition',
    'scrollIntoView',
  ],
};

/**
 * The text edits of react-dom/client, each the removal (or replacement) of one anchored text in code
 * this bundle never runs. Each text is an anchor (REACT_DOM_CLIENT_ANCHORS): a file without it
 * fails the build naming the edit.
 */
export const REACT_DOM_CLIENT_EDITS: { name: string; text: string; replacement: string }[] = [
  {
    name: "the view transitions' four error messages",
    text: VIEW_TRANSITION_FILTER,
    replacement: '                error = null;',
  },
  { name: 'the findDOMNode of the internals object', text: FIND_DOM_NODE, replacement: '' },
  { name: "the hydration root's unstable_scheduleHydration", text: SCHEDULE_HYDRATION, replacement: '' },
  {
    name: "the dispatcher's requestFormReset and resource hints",
    text: DISPATCHER,
    replacement: `ReactDOMSharedInternals.d = {
  f: flushSyncWork
};`,
  },
  ...Object.entries(UNUSED_METHODS).flatMap(([object, methods]) =>
    methods.map((method) => ({
      name: `${object}.prototype.${method}`,
      text: `\n${object}.prototype.${method} = function `,
      replacement: '\nvoid function ',
    })),
  ),
];

/** The names react-dom/client reads from a module it required, as `Alias.name`. */
const readsOf = (code: string, alias: string): string[] => [
  ...new Set([...code.matchAll(new RegExp(`\\b${alias}\\.(\\w+)`, 'g'))].map((m) => m[1]!)),
];

/** What the stand-ins rely on in react-dom-client.production.js: what it requires, and reads. */
export const REACT_DOM_CLIENT_ANCHORS: Anchor[] = [
  { name: 'ReactDOM = require("react-dom")', text: 'ReactDOM = require("react-dom")' },
  ...REACT_DOM_CLIENT_EDITS.map(({ name, text }) => ({ name, text })),
  { name: 'React = require("react")', text: 'React = require("react")' },
  {
    name: 'ReactDOM read only for __DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE',
    text: (code) => readsOf(code, 'ReactDOM').join() === '__DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE',
  },
  {
    // src/ui/react-internals.ts exports these two and nothing else
    name: 'React read only for __CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE and version',
    text: (code) =>
      readsOf(code, 'React').sort().join() === '__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE,version',
  },
];

/**
 * react-dom/client needs only the shared internals object of the `react-dom` entry, and our views
 * only its `flushSync` (src/ui/react-root.tsx); the rest of the entry's public API (portals,
 * resource hints: 3.5 KB raw) is code nothing here calls. Resolve react-dom/client's
 * `require("react-dom")` and the views' `react-dom` to src/ui/react-dom-internals.ts instead. The
 * files the anchors are checked in can be given (test/build points them at changed copies).
 */
export function reactDomInternals(files: { reactDom?: string; reactDomClient?: string } = {}): Plugin {
  const reactDom = files.reactDom ?? nodeModule('react-dom/cjs/react-dom.production.js');
  const reactDomClient = files.reactDomClient ?? nodeModule('react-dom/cjs/react-dom-client.production.js');
  const standIn = fileURLToPath(new URL('../src/ui/react-dom-internals.ts', import.meta.url));
  // the ids the edit applies to: the path given and its real path (a node_modules that is a symlink,
  // as in a git worktree sharing one, gives the module under its real path)
  const targets = new Set([reactDomClient, realPath(reactDomClient)]);
  let edited = false;
  return {
    name: 'pagepulse-react-dom-internals',
    enforce: 'pre',
    buildStart() {
      edited = false;
      const problem = checkAnchors(reactDom, REACT_DOM_ANCHORS) ?? checkAnchors(reactDomClient, REACT_DOM_CLIENT_ANCHORS);
      if (problem) this.error(problem);
    },
    transform(code, id) {
      if (!targets.has(id)) return null;
      edited = true;
      // checked at buildStart (REACT_DOM_CLIENT_ANCHORS): each text is there
      return { code: REACT_DOM_CLIENT_EDITS.reduce((out, edit) => out.replace(edit.text, edit.replacement), code), map: null };
    },
    buildEnd(error) {
      // react-dom/client in the build from a file the edit did not reach: fail, never ship it unedited
      if (error || edited) return;
      const other = [...this.getModuleIds()].find((id) => CLIENT_FILE.test(id));
      if (other)
        this.error(
          `${other}: react-dom/client came into the build from another file than ${reactDomClient}, and the build's edit of it ` +
            '(REACT_DOM_CLIENT_EDITS) was not made (build/react-dom-internals.ts)',
        );
    },
    resolveId(source, importer) {
      if (source !== 'react-dom') return null;
      // react-dom/client's internals, and the views' flushSync (src/ui/react-root.tsx); nobody else
      if (!importer || !ALLOWED.test(importer))
        this.error(
          `${importer ?? 'the entry'} imports react-dom: only react-dom/client's production file and src/ui/react-root.tsx may ` +
            '(the stand-in src/ui/react-dom-internals.ts is their one internals object)',
        );
      return standIn;
    },
  };
}
