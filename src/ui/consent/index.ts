import type { ConsentViewPort } from '../../consent/controller';
import type { Config } from '../../config';
import type { Messages } from '../../i18n';
import { safely, settle } from '../../platform/guard';
import type { Lifetime } from '../../platform/lifetime';
import baseCss from '../base.css?inline';
import { findOrCreateSurface } from '../mount';
import { lazySurface } from '../surfaces';
import css from './consent.css?inline';

/** What the consent UI needs from the page. */
export interface ConsentUiDeps {
  doc: Document;
  lifetime: Lifetime;
  log: { error(...args: unknown[]): void };
  t: Messages;
  config: Config;
}

/** The consent UI the controller drives: the banner and dialog (React, loaded on first use) and the revoke button (plain DOM). */
export function createConsentViewPort({ doc, lifetime, log, t, config }: ConsentUiDeps): ConsentViewPort {
  const load = lazySurface(
    () => import('./view'),
    (error) => log.error('consent banner failed to load', error),
  );
  let mounted = false;
  let button: HTMLButtonElement | null = null;
  return {
    mountView(view, actions) {
      if (mounted) return;
      mounted = true;
      settle(
        load().then((module) => {
          if (module && !lifetime.disposed) lifetime.add(module.mountConsent(doc, view, actions, t, config));
        }),
        log.error,
      );
    },
    // a page that broke the DOM's factories (a throwing document.createElement) loses the button,
    // not the choice that is being made
    revokeButton: (visible, reopen) =>
      safely(() => {
        if (visible && !button) {
          const surface = findOrCreateSurface(doc, 'consent', baseCss + css);
          button = doc.createElement('button');
          button.type = 'button';
          button.className = 'revoke';
          button.textContent = t.consentRevoke;
          button.addEventListener('click', () => reopen());
          surface.shadow.appendChild(button);
          lifetime.add(() => surface.host.remove());
        }
        if (button) button.hidden = !visible;
      }, log.error),
  };
}
