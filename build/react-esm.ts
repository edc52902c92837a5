// What it edits: React's CommonJS module (react/cjs/react.production.js), turned into an ES module,
// and the resolution of `react` (ours and react-dom/client's). Why: as CommonJS all of React's
// exports stay in the bundle; as ESM the unused ones are tree-shaken, and react-dom/client reads
// its two names from the small stand-in src/ui/react-internals.ts. The build fails when React's
// module no longer has the shape this edit expects.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * React's package is CommonJS: the bundler keeps all of its 44 exports although the views use five
 * (createElement, useEffect, useRef, useSyncExternalStore, and react-dom's internals). Turn
 * react.production.js's `exports.x = ...` statements into ESM exports so unused ones are dropped:
 * our `import ... from 'react'` goes straight to that module, react-dom/client's `require("react")`
 * to src/ui/react-internals.ts (the two names it reads). The build fails when React's module no
 * longer has this shape.
 */
export function reactEsm(): Plugin {
  const reactModule = fileURLToPath(new URL('../node_modules/react/cjs/react.production.js', import.meta.url));
  const standIn = fileURLToPath(new URL('../src/ui/react-internals.ts', import.meta.url));
  return {
    name: 'pagepulse-react-esm',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'react/cjs/react.production.js') return reactModule;
      if (source !== 'react') return null;
      return importer && /react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/.test(importer) ? standIn : reactModule;
    },
    transform(code, id) {
      if (id !== reactModule) return null;
      const names: string[] = [];
      const body = code.replace(/^exports\.(\w+) =/gm, (_, name: string) => {
        names.push(name);
        return `var __export_${name} =`;
      });
      const out = `${body}\nexport { ${names.map((name) => `__export_${name} as ${name}`).join(', ')} };\n`;
      if (/\b(exports|module|require)\b/.test(body.replace(/^\s*\*.*$/gm, '')) || !names.includes('createElement'))
        this.error(`react changed: ${id} is no longer a module of top-level \`exports.x = ...\` statements`);
      return { code: out, map: null };
    },
  };
}
