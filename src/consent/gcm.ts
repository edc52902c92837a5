import type { Config } from '../config';
import { consentModeSignals } from './rules';
import type { Categories } from './store';

type Gtag = (...args: unknown[]) => void;

/** Tells Google Consent Mode the categories: `default` before any tag runs, `update` after a choice. */
export type ConsentModeBridge = (command: 'default' | 'update', categories: Categories) => void;

/**
 * Consent Mode v2 bridge: pushes in gtag's `arguments` form to dataLayer, as gtag.js reads it.
 * Null when the site turned it off, or (`auto`) when the page has neither gtag nor dataLayer, unless
 * `google`: a Google tag is about to be held or let through (the blocker claimed it).
 */
export function consentModeBridge(
  { win, config }: { win: Window; config: Pick<Config, 'gcm'> },
  google?: boolean,
): ConsentModeBridge | null {
  const setting = config.gcm;
  const w = win as unknown as { dataLayer?: unknown[]; gtag?: Gtag };
  const present = typeof w.gtag === 'function' || Array.isArray(w.dataLayer);
  if (setting === 'off' || (setting === 'auto' && !present && !google)) return null;
  return (command, categories) => {
    if (!Array.isArray(w.dataLayer)) w.dataLayer = [];
    const dataLayer = w.dataLayer;
    const push: Gtag =
      typeof w.gtag === 'function'
        ? w.gtag
        : function () {
            // eslint-disable-next-line prefer-rest-params -- gtag.js reads real Arguments objects
            dataLayer.push(arguments);
          };
    push(
      'consent',
      command,
      command === 'default' ? { ...consentModeSignals(categories), wait_for_update: 500 } : consentModeSignals(categories),
    );
  };
}
