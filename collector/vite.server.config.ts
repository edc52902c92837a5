import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The collector compiled for production (`vite build -c collector/vite.server.config.ts`): one ES
 * module, `dist/collector/main.js`, run by plain node (`npm run collector`), no tsx at run time.
 * Node's own modules and the npm dependencies (better-sqlite3, a native module) stay imports.
 */
export default defineConfig({
  build: {
    ssr: fileURLToPath(new URL('./server/main.ts', import.meta.url)),
    outDir: fileURLToPath(new URL('../dist/collector', import.meta.url)),
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    reportCompressedSize: false,
    rolldownOptions: { output: { entryFileNames: 'main.js' } },
  },
});
