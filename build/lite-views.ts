// What it holds: the lite build's static import of its two views. Why: the consent banner's and the
// notifications' views are reached through `import('./view')` (src/ui/consent/index.ts,
// src/ui/notify/index.ts), so that the React build evaluates React only on first use. Rolldown
// inlines such an import into the one IIFE and wraps every module reachable from it in a lazy
// initializer, called on first use; in the lite build that was 18 wrappers and their calls around
// preact and the views, for a view whose whole evaluation is a few function definitions. Imported
// statically instead, Rolldown writes those modules as plain top-level code: -338 B gzip
// (2026-11-28). Each file must hold the import it replaces, or the build fails naming it.
import type { Plugin } from 'vite';

/** The files whose `import('./view')` the lite build makes static. */
const FILES = /[\\/]src[\\/]ui[\\/](consent|notify)[\\/]index\.ts$/;
const DYNAMIC = /import\((["'])\.\/view\1\)/;

export function liteStaticViews(): Plugin {
  return {
    name: 'pagepulse:lite-static-views',
    transform(code, id) {
      if (!FILES.test(id)) return null;
      if (!DYNAMIC.test(code)) throw new Error(`${id}: the lite build makes its import('./view') static and no longer finds it`);
      return {
        code: `import * as staticView from './view';\n${code.replace(DYNAMIC, 'Promise.resolve(staticView)')}`,
        map: null,
      };
    },
  };
}
