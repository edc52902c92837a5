import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

/**
 * zod 4's `members()` and `derived()` (zod/v4/core/util.js) walk tables with `for...in` and no
 * own-property check, so a page whose old library added an ENUMERABLE method to Object.prototype
 * (`Object.prototype.extend = ...`) makes the bundle throw while it evaluates. Iterate own keys
 * instead. The build fails if zod's source no longer has these loops, so the patch cannot rot.
 */
function zodOwnKeys(): Plugin {
  const loops = ['for (const key in table) {', 'for (const key in computes) {'];
  return {
    name: 'pagepulse-zod-own-keys',
    transform(code, id) {
      if (!/zod[\\/]v4[\\/]core[\\/]util\.js$/.test(id)) return null;
      let out = code;
      for (const loop of loops) {
        if (!out.includes(loop)) this.error(`zod changed: "${loop}" not found in ${id}; re-check the Object.prototype guard`);
        const object = loop.slice('for (const key in '.length, -') {'.length);
        out = out.replace(loop, `for (const key of Object.keys(${object})) {`);
      }
      return { code: out, map: null };
    },
  };
}

/**
 * Two builds from one source: `vite build` (React 19) and `vite build --mode lite` (preact/compat).
 * `--mode eager` is the React build with the UI evaluated before the tracker starts: the "before"
 * figure of the deferred start-up, built only by the benchmark.
 */
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig(({ mode }) => {
  const lite = mode === 'lite';
  const eager = mode === 'eager';
  return {
    plugins: [zodOwnKeys()],
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      __PAGEPULSE_VERSION__: JSON.stringify(pkg.version),
      __PAGEPULSE_BUILD__: JSON.stringify(lite ? 'lite' : eager ? 'eager' : 'react'),
      __PAGEPULSE_EAGER_UI__: JSON.stringify(eager),
    },
    resolve: lite
      ? {
          alias: [
            { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
            { find: /^react-dom$/, replacement: 'preact/compat' },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react$/, replacement: 'preact/compat' },
          ],
        }
      : {},
    build: {
      target: 'es2020',
      // never wipe dist/: both builds write there, and concurrent test runs read it
      emptyOutDir: false,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry: 'src/main.ts',
        formats: ['iife'],
        name: 'PagePulseBundle',
        fileName: () => (lite ? 'pagepulse.lite.iife.js' : eager ? 'pagepulse.eager.iife.js' : 'pagepulse.iife.js'),
      },
      rolldownOptions: {
        // library mode emits one IIFE (no code splitting): the dynamic import() of each UI surface
        // is inlined, and Rolldown still evaluates the imported modules (React among them) lazily,
        // on first use, so the tracker core never waits for React
        output: {},
      },
    },
  };
});
