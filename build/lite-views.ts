// What it holds: the lite build's static import of its two views. Why: the consent banner's and the
// notifications' views are reached through `import('./view')` (src/ui/consent/index.ts,
// src/ui/notify/index.ts), so that the React build evaluates React only on first use. Rolldown
// inlines such an import into the one IIFE and wraps every module reachable from it in a lazy
// initializer, called on first use; in the lite build that was 18 wrappers and their calls around
// preact and the views, for a view whose whole evaluation is a few function definitions. Imported
// statically instead, Rolldown writes those modules as plain top-level code: -338 B gzip
// (2026-11-28). Each file must hold the import it replaces, or the build fails naming it. The one
// function each file calls on the module (`mountConsent`, `mountNotify`) is imported by name and
// handed on in a plain object, not as a namespace (`import * as`): a namespace object brought
// Rolldown's helper that builds one (getters, `Symbol.toStringTag`), which nothing reads: -96 B gzip.
import type { Plugin } from 'vite';

/** The files whose `import('./view')` the lite build makes static. */
const FILES = /[\\/]src[\\/]ui[\\/](consent|notify)[\\/]index\.ts$/;
/** The export of each view that its index.ts calls (the only name it reads on the module). */
const MOUNT = { consent: 'mountConsent', notify: 'mountNotify' } as const;
const DYNAMIC = /import\((["'])\.\/view\1\)/;

export function liteStaticViews(): Plugin {
  return {
    name: 'pagepulse:lite-static-views',
    transform(code, id) {
      const surface = FILES.exec(id)?.[1] as keyof typeof MOUNT | undefined;
      if (!surface) return null;
      if (!DYNAMIC.test(code)) throw new Error(`${id}: the lite build makes its import('./view') static and no longer finds it`);
      const mount = MOUNT[surface];
      if (!code.includes(`.${mount}(`))
        throw new Error(`${id}: the lite build hands on ${mount} of './view' and no longer finds its call`);
      return {
        code: `import { ${mount} as staticMount } from './view';\n${code.replace(DYNAMIC, `Promise.resolve({ ${mount}: staticMount })`)}`,
        map: null,
      };
    },
  };
}
