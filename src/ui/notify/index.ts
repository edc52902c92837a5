import type { NotifyOptions } from '../../api';
import type { Context } from '../../context';

/** The notification feature's handle. */
export interface Notifier {
  notify(text: string, options?: NotifyOptions): void;
  dispose(): void;
}

/** Notifications (protocol section 8). STUB: replaced by the notification surface. */
export function createNotifier(ctx: Pick<Context, 'log'>): Notifier {
  return { notify: (text) => ctx.log.info(text), dispose: () => {} };
}
