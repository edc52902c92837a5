// What it edits: React's CommonJS module (react/cjs/react.production.js), turned into an ES module,
// and the resolution of `react` (ours and react-dom/client's). Why: as CommonJS all of React's
// exports stay in the bundle; as ESM the unused ones are tree-shaken, and react-dom/client reads
// its two names from the small stand-in src/ui/react-internals.ts. The build fails, naming the file
// and the anchor (build/pinned.ts), when React's module no longer has the shape this edit expects.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { missingAnchors, type Anchor } from './pinned.ts';

/** What the views and src/ui/react-internals.ts import from React's module. */
const USED = [
  'createElement',
  'useEffect',
  'useRef',
  'useState',
  'useSyncExternalStore',
  '__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE',
  'version',
];

/**
 * What our modules may import from React: the names of USED, as named imports (`type` imports are
 * free). build/react-dom-internals.ts edits out of react-dom/client what only other exports reach:
 * the methods of a Fragment's ref (`<Fragment ref>`) and of a `<ViewTransition>`'s pseudo-elements.
 * A module that imports anything else from `react` (Fragment, ViewTransition, a namespace or the
 * default), or imports `react/jsx-runtime` by hand (its Fragment), fails the build naming the module
 * and the import; JSX's own `<>...</>` takes no ref and stays as it is.
 */
export function reactImportProblem(id: string, text: string): string | null {
  for (const m of text.matchAll(
    /\b(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*['"](react(?:\/jsx-(?:dev-)?runtime)?)['"]/g,
  )) {
    const [statement, typeOnly, clause, source] = m as unknown as [string, string | undefined, string, string];
    if (typeOnly) continue;
    const names = /^\{([^}]*)\}$/.test(clause.trim())
      ? clause
          .trim()
          .slice(1, -1)
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part && !part.startsWith('type '))
          .map((part) => part.split(/\s+as\s+/)[0]!)
      : null;
    const other = names === null ? clause.trim() : names.find((name) => !USED.includes(name));
    if (source !== 'react' || other !== undefined)
      return (
        `${id}: \`${statement.replace(/\s+/g, ' ')}\` imports ${other ?? source} from ${source}; the React build lets our modules ` +
        `import only ${USED.slice(0, 5).join(', ')} from react (build/react-esm.ts USED): build/react-dom-internals.ts edits ` +
        "react-dom/client's Fragment refs and view transitions out"
      );
  }
  return null;
}

/** Comment lines (` * ...`) say "exports" and "require" in prose; they are not code. */
const code = (text: string): string => text.replace(/^\s*\*.*$/gm, '');

/** The shape react.production.js must have for the rewrite (checked on the file before it is rewritten). */
export const REACT_ANCHORS: Anchor[] = [
  ...USED.map((name) => ({ name: `exports.${name} =`, text: new RegExp(`^exports\\.${name} =`, 'm') })),
  {
    // every `exports`, `module` or `require` in code is a top-level `exports.x =` the rewrite turns into a `var`
    name: 'top-level `exports.x = ...` statements only (no other exports, module or require)',
    text: (text) => !/\b(exports|module|require)\b/.test(code(text).replace(/^exports\.\w+ =/gm, '')),
  },
];

/**
 * React's package is CommonJS: the bundler keeps all of its 44 exports although the views use five
 * (createElement, useEffect, useRef, useState, useSyncExternalStore) and react-dom two more. Turn
 * react.production.js's `exports.x = ...` statements into ESM exports so unused ones are dropped:
 * our `import ... from 'react'` goes straight to that module, react-dom/client's `require("react")`
 * to src/ui/react-internals.ts (the two names it reads). `file` replaces React's module (test/build
 * points it at a changed copy).
 */
export function reactEsm(file?: string): Plugin {
  const reactModule = file ?? fileURLToPath(new URL('../node_modules/react/cjs/react.production.js', import.meta.url));
  const standIn = fileURLToPath(new URL('../src/ui/react-internals.ts', import.meta.url));
  return {
    name: 'pagepulse-react-esm',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'react/cjs/react.production.js') return reactModule;
      if (source !== 'react') return null;
      return importer && /react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/.test(importer) ? standIn : reactModule;
    },
    transform(text, id) {
      if (id !== reactModule) {
        if (/[\\/]node_modules[\\/]/.test(id) || !/\.[cm]?[jt]sx?$/.test(id)) return null;
        const wrong = reactImportProblem(id, text);
        if (wrong) this.error(wrong);
        return null;
      }
      const problem = missingAnchors(id, text, REACT_ANCHORS);
      if (problem) this.error(problem);
      const names: string[] = [];
      const body = text.replace(/^exports\.(\w+) =/gm, (_, name: string) => {
        names.push(name);
        return `var __export_${name} =`;
      });
      const out = `${body}\nexport { ${names.map((name) => `__export_${name} as ${name}`).join(', ')} };\n`;
      return { code: out, map: null };
    },
  };
}
