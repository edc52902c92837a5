import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The admin area (`vite build -c collector/vite.admin.config.ts`): an ordinary ES-module app from collector/admin/,
 * written to dist/admin/ and served under /admin/ by the collector, behind its sign-in. Separate
 * from vite.config.ts so nothing of it can reach the visitor bundle (one IIFE, size-gated).
 */
export default defineConfig({
  root: fileURLToPath(new URL('./admin', import.meta.url)),
  base: '/admin/',
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // no inline polyfill script: the admin CSP allows only our own script files
    modulePreload: { polyfill: false },
  },
});
