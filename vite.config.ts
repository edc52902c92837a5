import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { PREACT_NAMES, propertyMangling, reactPropertyMangling } from './build/mangle.ts';
import { liteStaticViews } from './build/lite-views.ts';
import { reactDomInternals } from './build/react-dom-internals.ts';
import { pinnedDependencies } from './build/pinned.ts';
import { preactEdits } from './build/preact-edits.ts';
import { reactEsm } from './build/react-esm.ts';

// The build's edits of React and react-dom and the lite build's mangling lists live in build/,
// one module each, with what they edit and why; test/build runs the edited code. The packages whose
// text they edit are pinned to exact versions, which every build checks first (build/pinned.ts).

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Two builds from one source: `vite build` (React 19) and `vite build --mode lite` (preact: the
 * views' few React imports are aliased to src/ui/lite/, preact's core and hooks without compat).
 */
export default defineConfig(({ mode }) => {
  // `lite-debug`: the lite build's debug box as its own file (src/debug.ts), same aliases and edits
  const lite = mode === 'lite' || mode === 'lite-debug';
  const debugFile = mode === 'lite-debug';
  return {
    plugins: lite
      ? [pinnedDependencies(), liteStaticViews(), preactEdits()]
      : [pinnedDependencies(), reactDomInternals(), reactEsm(), reactPropertyMangling()],
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      __PAGEPULSE_VERSION__: JSON.stringify(pkg.version),
      __PAGEPULSE_BUILD__: JSON.stringify(lite ? 'lite' : 'react'),
    },
    resolve: lite
      ? {
          alias: [
            {
              find: /^react-dom\/client$/,
              replacement: fileURLToPath(new URL('./src/ui/lite/react-dom-client.ts', import.meta.url)),
            },
            { find: /^react-dom$/, replacement: fileURLToPath(new URL('./src/ui/lite/react-dom.ts', import.meta.url)) },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react$/, replacement: fileURLToPath(new URL('./src/ui/lite/react.ts', import.meta.url)) },
          ],
        }
      : {},
    build: {
      // es2022 keeps `??=` and class fields instead of lowering them (-88 B gzip React, -66 B lite); all of
      // it runs in Safari 15 (iOS 15): what es2022 has and Safari 15 lacks, class static blocks
      // (16.4), occurs neither in our code nor in our dependencies (scripts/size-gate.mjs checks)
      target: 'es2022',
      // the lite build through terser (3 compress passes): 272 B gzip smaller than Rolldown's oxc
      // minifier on it; the React build stays on oxc, which does better there (terser: +167 B).
      // `sequences: false` and `inline: 1` only switch transforms OFF (no comma-joined statements,
      // inline only functions without arguments/variables), so they cannot change behaviour; gzip
      // finds more repeats in the plainer output: -49 B gzip lite (measured with both).
      // Property mangling of `__`/`__x` names (two underscores, at most one letter) only: those are preact's own
      // already-mangled internals (vnode `__k`/`__e`, hook state `__H`, options `__b`/`__r`...),
      // shared by preact core, hooks and jsx-runtime, all inside this one bundle; nothing in src/
      // or the page reads them (`__html`, `__proto__` do not match). Terser never picks a name used
      // as a property anywhere else in the code or a DOM property, so no collision: -76 B gzip lite.
      // Likewise preact's other names that only it and our views read (build/mangle.ts PREACT_NAMES)
      // `unsafe_arrows` turns anonymous `function` expressions that use neither `this` nor `arguments`
      // into arrows; it breaks only one that is called with `new` or whose `.prototype` is read, and
      // the bundle has none (our constructors are classes, preact's `Component` is named and uses
      // `this`; the rest are callbacks and inlined helpers): -25 B gzip lite. `pure_getters`: reading a
      // property has no side effect (no code of ours reads one for its effect, as `el.offsetWidth` to
      // force a layout); on the lite build it merges `x === undefined || x === null` into `x == null`
      // where x is a property and inlines one call: -11 B gzip. `unsafe_proto` writes
      // `Object.prototype.hasOwnProperty.call` as `{}.hasOwnProperty.call`: the same function, looked
      // up on the same prototype (a literal's), so the same even where the page replaced it: -12 B gzip
      ...(lite
        ? {
            minify: 'terser' as const,
            terserOptions: {
              ecma: 2020 as const,
              compress: { passes: 3, sequences: false, inline: 1, unsafe_arrows: true, pure_getters: true, unsafe_proto: true },
              mangle: { properties: propertyMangling(PREACT_NAMES) },
              format: { comments: false },
            },
          }
        : {}),
      // never wipe dist/: both builds write there, and concurrent test runs read it
      emptyOutDir: false,
      // maps as build artefacts next to the bundles, without a sourceMappingURL comment: the
      // bundle bytes stay what they were, and the maps are there for whoever decodes a stack
      sourcemap: 'hidden',
      reportCompressedSize: false,
      lib: {
        entry: debugFile ? 'src/debug.ts' : 'src/main.ts',
        formats: ['iife'],
        name: debugFile ? 'PagePulseDebug' : 'PagePulseBundle',
        fileName: () => (debugFile ? 'pagepulse.debug.lite.js' : lite ? 'pagepulse.lite.iife.js' : 'pagepulse.iife.js'),
      },
      rolldownOptions: {
        // terser's renderChunk takes most of the lite build: expected, not worth a warning on every build
        checks: { pluginTimings: false },
        // library mode emits one IIFE (no code splitting): the dynamic import() of each UI surface
        // is inlined, and Rolldown still evaluates the imported modules (React among them) lazily,
        // on first use, so the tracker core never waits for React
        output: {
          // V8's explicit compile hint (Chrome 136+): compile every function while the script streams
          // in, on a background thread, instead of each one on the main thread at its first call; a
          // first visit's banner path calls most of the bundle. Other engines read a comment.
          // After minification, so terser keeps it; docs/decisions.md "Start-up order" has the figures.
          postBanner: '//# allFunctionsCalledOnLoad',
        },
      },
    },
  };
});
