import type { Context } from '../context';
import { settle } from '../platform/guard';

/**
 * The React surfaces are reached only through dynamic import(): Rolldown inlines them into the
 * single IIFE but evaluates their modules (React among them) on first use, so the tracker core
 * starts without paying for React. Each loader runs the import once.
 */
export function lazySurface<M>(load: () => Promise<M>, onError: (error: unknown) => void): () => Promise<M | null> {
  let pending: Promise<M | null> | null = null;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      onError(error);
      pending = null;
      return null;
    }));
}

/** A <script> of one of the QA files beside the bundle: the file hands its module to `pagepulseLoaded`. */
export type QaScript = HTMLScriptElement & { pagepulseLoaded?: (module: unknown) => void };

/**
 * Load a QA file (`pagepulse.heatmap.js`, the lite build's `pagepulse.debug.lite.js`) from the
 * folder the bundle came from (`url` resolves the name); resolves with what the file exports, or
 * rejects when it cannot be loaded. The visitor's tag stays one tag: these load only for QA.
 */
export function loadQaFile<M>(doc: Document, url: string): Promise<M> {
  return new Promise((resolve, reject) => {
    const script: QaScript = doc.createElement('script');
    script.src = url;
    script.pagepulseLoaded = (module) => resolve(module as M);
    script.onerror = () => reject(new Error(`could not load ${url}`));
    doc.head.append(script);
  });
}

/**
 * Mount the debug box the first time debug is on and there is a message to show. The lite build
 * loads the box from `pagepulse.debug.lite.js` (QA only: its bytes are not every visitor's);
 * `url` resolves a file name beside the bundle.
 */
export function watchDebugBox(ctx: Context, url: (file: string) => string): () => void {
  const load = lazySurface<typeof import('./debug/view')>(
    () => (__PAGEPULSE_BUILD__ === 'lite' ? loadQaFile(ctx.doc, url('pagepulse.debug.lite.js')) : import('./debug/view')),
    (error) => ctx.log.error('debug box failed to load', error),
  );
  let mounted = false;
  const check = (): void => {
    const state = ctx.debug.get();
    if (mounted || !state.enabled || state.messages.length === 0) return;
    mounted = true;
    settle(
      load().then((view) => {
        if (view && !ctx.lifetime.disposed) ctx.lifetime.add(view.mountDebug(ctx.doc, ctx.debug, ctx.config.lang));
      }),
      ctx.log.error,
    );
  };
  const unsubscribe = ctx.debug.subscribe(check);
  check();
  return unsubscribe;
}
