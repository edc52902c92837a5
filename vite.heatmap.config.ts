import { defineConfig } from 'vite';

/**
 * The QA heatmap overlay as its own small IIFE (`dist/pagepulse.heatmap.js`), loaded on demand by
 * either bundle from the folder it came from (src/heatmap.ts). It imports neither React nor zod,
 * so none of the dependency edits of vite.config.ts apply.
 */
export default defineConfig({
  build: {
    target: 'es2022',
    emptyOutDir: false,
    sourcemap: 'hidden',
    reportCompressedSize: false,
    lib: { entry: 'src/heatmap.ts', formats: ['iife'], name: 'PagePulseHeatmap', fileName: () => 'pagepulse.heatmap.js' },
  },
});
