// Helpers shared by the benchmark scripts (scripts/bench.ts and scripts/bench/*.ts).
import { resolve } from 'node:path';
import { build } from 'vite';

/** Where the benchmarks put what they build and write (git-ignored). */
export const BENCH_OUT = resolve('.bench');

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds for a table cell, `n/a` for none. */
export const ms = (value: number | null): string => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(1));

/**
 * A bench-only entry built as a production IIFE into .bench/NAME.js; `postBanner` as the shipped
 * builds' (vite.config.ts) where a comparison needs it. Returns the file's path.
 */
export async function bundleForPage(entry: string, name: string, postBanner?: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: BENCH_OUT,
      emptyOutDir: false,
      lib: { entry, formats: ['iife'], name: name.replace(/\W/g, '_'), fileName: () => `${name}.js` },
      ...(postBanner ? { rolldownOptions: { output: { postBanner } } } : {}),
    },
  });
  return resolve(BENCH_OUT, `${name}.js`);
}
