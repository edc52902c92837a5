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

/** Mount the debug box the first time debug is on and there is a message to show. */
export function watchDebugBox(ctx: Context): () => void {
  const load = lazySurface(
    () => import('./debug/view'),
    (error) => ctx.log.error('debug box failed to load', error),
  );
  let mounted = false;
  const check = (): void => {
    const state = ctx.debug.get();
    if (mounted || !state.enabled || state.messages.length === 0) return;
    mounted = true;
    settle(
      load().then((view) => {
        if (view && !ctx.lifetime.disposed) ctx.lifetime.add(view.mountDebug(ctx.doc, ctx.debug, ctx.t));
      }),
      ctx.log.error,
    );
  };
  const unsubscribe = ctx.debug.subscribe(check);
  check();
  return unsubscribe;
}
