// Builds a small entry through Vite's build API with the given plugins, in memory (`write: false`),
// as the bundle's build does (production React, es2022, one IIFE); returns the output's code.
import { JSDOM } from 'jsdom';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { build, type Plugin } from 'vite';
import { expect } from 'vitest';

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

/**
 * Runs the built react-entry.ts fixture in jsdom: its first render is in the page when mount
 * returns (flushSync, before any task runs), a state update re-renders it, teardown unmounts it.
 */
export async function expectEntryRenders(code: string): Promise<void> {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { runScripts: 'outside-only', pretendToBeVisual: true });
  new Script(code).runInContext(dom.getInternalVMContext());
  const doc = dom.window.document;
  const entry = (
    dom.window as unknown as Record<string, { mount: (d: Document) => { teardown: () => void; bump: Promise<() => void> } }>
  )[GLOBAL]!;
  const { teardown, bump } = entry.mount(doc);
  const host = doc.querySelector('pagepulse-build-test');
  expect(host?.shadowRoot?.querySelector('#count')?.textContent).toBe('count 0');
  (await bump)();
  await expect.poll(() => host?.shadowRoot?.querySelector('#count')?.textContent).toBe('count 1');
  teardown();
  expect(doc.querySelector('pagepulse-build-test')).toBeNull();
  dom.window.close();
}
