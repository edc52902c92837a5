import type { Context, NotifyOptions } from '../../context';
import { settle } from '../../platform/guard';
import { lazySurface } from '../surfaces';
import { createNotifyStore } from './store';

/** The notification feature's handle. */
export interface Notifier {
  notify(text: string, options?: NotifyOptions): void;
  dispose(): void;
}

const STATUSES = ['primary', 'success', 'warning', 'danger'] as const;

/**
 * Notifications (docs/protocol.md#notifications). The view loads on the first message; the message is added
 * once the empty live region is in the page, because screen readers announce changes to a region
 * that already exists, not a region that arrives with its content.
 */
export function createNotifier(ctx: Pick<Context, 'doc' | 'win' | 'lifetime' | 'log' | 't'>): Notifier {
  const onError = ctx.log.error;
  const store = createNotifyStore(
    { now: () => ctx.win.performance.now(), setTimer: (fn, ms) => ctx.lifetime.timeout(fn, ms) },
    onError,
  );
  const load = lazySurface(
    () => import('./view'),
    (error) => ctx.log.error('notifications failed to load', error),
  );
  let mounted: Promise<boolean> | null = null;
  const mount = (): Promise<boolean> =>
    (mounted ??= load().then((view) => {
      if (!view || ctx.lifetime.disposed) return false;
      ctx.lifetime.add(view.mountNotify(ctx.doc, store, ctx.t));
      return true;
    }));
  return {
    notify(text, options = {}) {
      const status = STATUSES.includes(options.status as (typeof STATUSES)[number]) ? options.status : 'primary';
      const timeout = typeof options.timeout === 'number' && options.timeout >= 0 ? options.timeout : undefined;
      settle(
        mount().then((ok) => {
          if (ok) ctx.lifetime.timeout(() => store.add(String(text), status, timeout), 50);
          else ctx.log.info(String(text));
        }),
        onError,
      );
    },
    dispose: () => store.dispose(),
  };
}
