// Builds a small entry through Vite's build API with the given plugins, in memory (`write: false`),
// as the bundle's build does (production React, es2022, one IIFE); returns the output's code.
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** The IIFE assigns the entry's exports to this global. */
export const GLOBAL = 'BuildTestEntry';

export async function bundle(entry: string, plugins: Plugin[]): Promise<string> {
  const result = await build({
    configFile: false,
    envFile: false,
    publicDir: false,
    logLevel: 'silent',
    root,
    plugins,
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      __PAGEPULSE_BUILD__: JSON.stringify('react'),
    },
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      reportCompressedSize: false,
      lib: { entry, formats: ['iife'], name: GLOBAL, fileName: () => 'entry.js' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs)
    if ('output' in output) for (const file of output.output) if (file.type === 'chunk' && file.isEntry) return file.code;
  throw new Error(`no entry chunk built for ${entry}`);
}
