import type { Context } from '../context';
import { describeError } from '../joomla/alerts';
import { settle } from '../platform/guard';
import { reporting } from '../platform/request';
import type { InsertionWatch } from '../platform/watch';
import { startBlocker, type Blocker, type PlaceholderPort } from './blocker';
import { startConsentController, type ConsentHandle, type ConsentViewPort } from './controller';
import { watchFormConsent } from './form-consent';
import { consentModeBridge } from './gcm';
import { isFinal, isLogCall } from './log';

export type { ConsentHandle, ConsentViewPort } from './controller';
export type { PlaceholderPort } from './blocker';

/** What must act before the DOM is ready: the Consent Mode default and the blocker. */
export interface ConsentEarly {
  blocker: Blocker;
  /** The placeholder buttons' targets, set once the consent feature runs. */
  openSettings: () => void;
  allowService: (key: string) => void;
}

/** Before the DOM is ready: Consent Mode default (before any tag), clearing what is not allowed, and the blocker. */
export function startConsentEarly(ctx: Context, watch: InsertionWatch, placeholder: PlaceholderPort): ConsentEarly {
  consentModeBridge(ctx)?.('default', ctx.consent.get().categories);
  ctx.consent.clear();
  const early: ConsentEarly = {
    openSettings: () => {},
    // before the controller runs (a placeholder clicked while the page still loads): stored and
    // released, logged with the next choice
    allowService: (key) => {
      ctx.consent.allowService(key);
      settle(early.blocker.release(), ctx.log.error);
    },
    blocker: startBlocker({
      ...ctx,
      watch,
      placeholder,
      allows: (id) => ctx.consent.allows(id),
      openSettings: () => early.openSettings(),
      allowService: (key) => early.allowService(key),
    }),
  };
  return early;
}

/** DOM ready: the consent controller over the injected UI, and form consent. */
export function startConsent(ctx: Context, early: ConsentEarly, ui: ConsentViewPort): ConsentHandle {
  const { t } = ctx;
  // the widget's own calls: a failure is kept (queue) or shown in place, and named in the debug box
  // (a log call the server refuses for good is named once by the log queue instead, consent/log.ts)
  const request = reporting(ctx.request, (error, options) => {
    if (!(isFinal(error) && isLogCall(options.url)))
      ctx.debug.add(t.consentCallTitle, `${options.url.split('task=')[1] ?? options.url}: ${describeError(error, t)}`);
  });
  watchFormConsent({ ...ctx, request });
  const handle = startConsentController({ ...ctx, request, blocker: early.blocker, ui });
  early.openSettings = handle.open;
  early.allowService = handle.allowService;
  return handle;
}
