import { CATEGORY_IDS, type CategoryId } from '../config';
import { settle } from '../platform/guard';
import { createStore } from '../platform/store';
import { fetchDescription, type CategoryDetails } from './descriptions';
import { consentModeBridge } from './gcm';
import { deliver, flushQueue, logEntries, textVersion, type LogQueue } from './log';
import { acceptsByCountry, automaticCategories, statusFor } from './rules';
import { guardedStorage, readItem, writeItem } from './storage';
import type { ConsentActions, ConsentControllerDeps, ConsentHandle, ConsentViewState } from './controller-types';
import { formatCategories, type Categories, type ConsentStatus } from './store';

export type { CategoryDetails } from './descriptions';
export type { ConsentActions, ConsentControllerDeps, ConsentHandle, ConsentViewPort, ConsentViewState } from './controller-types';

/** Wait after an automatic acceptance by country before the reload (docs/protocol.md#constants). */
const COUNTRY_RELOAD_MS = 1000;
/** Longest wait for the log calls before the reload; keepalive carries them on, and the queue keeps them. */
const LOG_WAIT_MS = 1500;
/** A decline reloads the page: its notification is shown on the page that follows. */
const DENY_FLAG = 'pagepulse.denied';
/** Longest wait for an idle moment before the deferred start-up work runs anyway. */
const IDLE_WAIT_MS = 1000;
/** Centred popup for the privacy page, 700x800 (docs/protocol.md#constants). */
const POPUP = { width: 700, height: 800 };

/** The consent controller: view state, choices (log, Consent Mode, reload), the start-up decision. */
export function startConsentController(deps: ConsentControllerDeps): ConsentHandle {
  const { config, consent, doc, win, t, lifetime, request, notify, log, blocker, ui, cookies, debug } = deps;
  // localStorage keeps the log queue (opened only when its marker cookie says there is one),
  // sessionStorage the deny flag; either may be refused. A refused log call (a site without
  // com_gdpr answers its tasks 404) is dropped and named once per page
  let refused = false;
  const queue: LogQueue = {
    storage: guardedStorage(() => win.localStorage),
    cookies,
    refused(error) {
      // for the site owner: in English, as the configuration warnings are
      if (!refused) debug.add(t.consentCallTitle, `No consent log on the server (HTTP ${error.status}): entries dropped.`);
      refused = true;
    },
  };
  const session = guardedStorage(() => win.sessionStorage);
  const view = createStore<ConsentViewState>({
    open: false,
    draft: consent.get().categories,
    services: consent.get().services,
    details: null,
    id: null,
    outdated: false,
  });
  const descriptions = new Map<CategoryId, CategoryDetails>();
  let opener: Element | null = null;

  const notifyDenied = (): void => notify(config.denyMessage || t.consentDenyMessage, { status: 'warning' });
  const syncRevoke = (): void => ui.revokeButton(config.revokable && consent.get().chosen && !view.get().open, show);

  function show(): void {
    opener = doc.activeElement;
    const { categories, services, id, outdated } = consent.get();
    view.set((s) => ({ ...s, open: true, draft: categories, services, id, outdated: outdated === true }));
    ui.revokeButton(false, show);
    ui.mountView(view, actions);
  }

  const hide = (): void => {
    view.set((s) => ({ ...s, open: false, details: null }));
    syncRevoke();
    const back = opener as HTMLElement | null;
    if (back?.isConnected && typeof back.focus === 'function') back.focus();
  };

  const choose = async (
    status: ConsentStatus,
    wanted: Categories,
    reloadDelay = 0,
    services?: readonly string[],
  ): Promise<void> => {
    // announced before the store's listeners run: the tracker does not start on a page about to reload;
    // the store clears the cookies of what is no longer allowed before anything else happens
    const changed = consent.choose(status, wanted, config.reloadAfterChange, services, blocker.unlocks);
    const now = consent.get().categories;
    // looked up at the choice: a gtag loaded after the bundle is told the choices too
    consentModeBridge(deps)?.('update', now);
    hide();
    if (config.logConsent)
      await Promise.race([
        record(
          status !== 'deny',
          changed.map((id) => [id, now[id]]),
        ),
        new Promise((resolve) => lifetime.timeout(() => resolve(null), LOG_WAIT_MS)),
      ]);
    const denied = status === 'deny' && config.denyMessageEnabled;
    if (consent.get().reloading) {
      if (denied) writeItem(session, DENY_FLAG, '1');
      lifetime.timeout(() => win.location.reload(), reloadDelay);
      return;
    }
    if (denied) notifyDenied();
    settle(blocker.release(), log.error);
  };
  /** Log what the visitor agreed to now (a choice, or a service allowed on its own), with the consent ID. */
  const record = (generic: boolean, changed: Array<[CategoryId, boolean]>): Promise<void> => {
    const state = consent.get();
    return deliver(
      request,
      queue,
      logEntries(config, generic, changed, {
        id: state.id!,
        categories: formatCategories(state.categories),
        services: state.services.join('.'),
        revision: consent.revision,
        text: textVersion(config, t),
      }),
    );
  };
  const decide = (status: ConsentStatus, wanted: Categories, reloadDelay?: number, services?: readonly string[]): void =>
    settle(choose(status, wanted, reloadDelay, services), log.error);
  const chooseByStatus = (categories: Categories, reloadDelay?: number, services?: readonly string[]): void =>
    decide(statusFor(categories), categories, reloadDelay, services);

  const offered = (): Categories => {
    const out = {} as Categories;
    for (const id of CATEGORY_IDS) out[id] = config.categories[id].offered || config.categories[id].locked;
    return out;
  };

  const actions: ConsentActions = {
    toggle: (id, on) => view.set((s) => ({ ...s, draft: { ...s.draft, [id]: config.categories[id].locked ? true : on } })),
    toggleService: (key, on) =>
      view.set((s) => ({ ...s, services: on ? [...s.services, key] : s.services.filter((k) => k !== key) })),
    decline: () => decide('deny', { 1: true, 2: false, 3: false, 4: false }, 0, []),
    save: () => chooseByStatus(view.get().draft, 0, view.get().services),
    acceptAll: () => decide('allow', offered()),
    showDetails(id) {
      const cached = descriptions.get(id);
      view.set((s) => ({ ...s, details: cached ?? { id, state: 'loading', nodes: [] } }));
      if (cached && cached.state !== 'error') return;
      settle(
        fetchDescription(request, config, id, win.location).then((details) => {
          descriptions.set(id, details);
          view.set((s) => (s.details?.id === id ? { ...s, details } : s));
        }),
        log.error,
      );
    },
    closeDetails: () => view.set((s) => ({ ...s, details: null })),
    openPrivacy(event) {
      if (!config.privacyUrl) return;
      const left = Math.max(0, (win.screen.availWidth - POPUP.width) / 2);
      const top = Math.max(0, (win.screen.availHeight - POPUP.height) / 2);
      const popup = win.open(
        config.privacyUrl,
        'pagepulse-privacy',
        `popup,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`,
      );
      if (popup) event.preventDefault(); // blocked: the link navigates as a plain link
    },
    categoryName: (id) => config.categories[id].name || t[`category${id}`],
  };

  // not needed for the page's first frame: re-sending queued logs, the deny message carried over
  // the reload and the revoke button wait for an idle moment, so the host page's own start-up goes
  // first. Storage is opened only when there is something in it (a first storage access costs
  // milliseconds): the queue when its marker cookie is set, the deny flag after a decline (it is
  // written only on the way to the reload after one). A first visit has neither: nothing runs.
  if (consent.get().chosen)
    lifetime.idle(() => {
      settle(flushQueue(request, queue), log.error);
      if (consent.get().status === 'deny' && readItem(session, DENY_FLAG) === '1') {
        writeItem(session, DENY_FLAG, null);
        notifyDenied();
      }
      syncRevoke();
    }, IDLE_WAIT_MS);
  settle(blocker.release(), log.error);

  if (!consent.get().chosen) {
    if (acceptsByCountry(config.country)) {
      const gpc = (win.navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
      chooseByStatus(automaticCategories(offered(), gpc), COUNTRY_RELOAD_MS);
    } else show();
  } else if (config.openAlwaysDeclined && consent.get().status === 'deny') show(); // com_gdpr: ask again after a decline

  return {
    open: show,
    revoke: actions.decline,
    allowService(key) {
      if (!consent.allowService(key)) return;
      // logged as what stands now: the generic call repeats the status (or, before any choice, what
      // the defaults amount to) and carries the services
      const state = consent.get();
      if (config.logConsent) settle(record((state.status ?? statusFor(state.categories)) !== 'deny', []), log.error);
      settle(blocker.release(), log.error);
    },
    set(categories) {
      const next = { ...consent.get().categories };
      for (const id of CATEGORY_IDS) if (typeof categories[id] === 'boolean') next[id] = categories[id]!;
      chooseByStatus(next);
    },
  };
}
