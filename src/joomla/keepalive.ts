import type { Context } from '../context';
import { describeError } from './alerts';
import { settle } from '../platform/guard';

/**
 * Joomla's keep-alive (docs/protocol.md#keep-alive): a GET every interval so a visitor's session (a form
 * being filled in) does not expire; the answer is ignored. Like Joomla's it keeps running while
 * the tab is hidden: a hidden tab with a half-written form is exactly the case it exists for, and
 * browsers throttle hidden timers anyway.
 */
export function startKeepalive(ctx: Pick<Context, 'config' | 'lifetime' | 'request' | 'debug' | 't' | 'log'>): () => void {
  const { config, t } = ctx;
  if (config.keepalive === null) return () => {};
  const url = config.keepaliveUrl ?? `${config.base}index.php?option=com_ajax&format=json`;
  return ctx.lifetime.interval(
    () =>
      settle(
        ctx.request({ url, responseType: 'text' }).then((result) => {
          if (!result.ok) ctx.debug.add(t.keepaliveTitle, describeError(result.error, t));
        }),
        ctx.log.error,
      ),
    config.keepalive,
  );
}
