import { CATEGORY_IDS, type CategoryId } from '../config';
import type { Context } from '../context';
import { describeError } from '../platform/alerts';
import { reporting } from '../platform/request';
import { createStore, type Store } from '../platform/store';
import { findOrCreateSurface } from '../ui/mount';
import { lazySurface } from '../ui/surfaces';
import baseCss from '../ui/base.css?inline';
import css from '../ui/consent/consent.css?inline';
import { startBlocker, type Blocker } from './blocker';
import { deliver, flushQueue, logEntries, type QueueStorage } from './log';
import { acceptsByCountry, automaticCategories, consentModeSignals, fieldLabel, isTrackedField } from './rules';
import { sanitizeFragment, type SafeNode } from './sanitize';
import type { Categories, ConsentStatus } from './store';

/** Wait after an automatic acceptance by country before the reload (site-spec section 9). */
const COUNTRY_RELOAD_MS = 1000;
/** Longest wait for the log calls before the reload; keepalive carries them on, and the queue keeps them. */
const LOG_WAIT_MS = 1500;
/** A decline reloads the page: its notification is shown on the page that follows. */
const DENY_FLAG = 'pagepulse.denied';
/** Longest wait for an idle moment before the deferred start-up work runs anyway. */
const IDLE_WAIT_MS = 1000;
/** Centred popup for the privacy page (site-spec section 9: 700x800). */
const POPUP = { width: 700, height: 800 };

/** The consent widget's handle for the public API. */
export interface ConsentWidget {
  open(): void;
  revoke(): void;
  set(categories: Partial<Record<CategoryId, boolean>>): void;
  dispose(): void;
}

/** What must act before the DOM is ready: the Consent Mode default and the blocker. */
export interface ConsentEarly {
  blocker: Blocker;
  /** The placeholder button's target, set once the widget exists. */
  openSettings: () => void;
}

/** A category description as the dialog shows it. */
export interface Details {
  id: CategoryId;
  state: 'loading' | 'error' | 'ready';
  nodes: SafeNode[];
}

/** What the consent view shows: the banner (open), its checkboxes (draft) and the dialog (details). */
export interface ConsentUi {
  open: boolean;
  draft: Categories;
  details: Details | null;
}

/** What the view can do. */
export interface ConsentActions {
  toggle(id: CategoryId, on: boolean): void;
  decline(): void;
  save(): void;
  acceptAll(): void;
  showDetails(id: CategoryId): void;
  closeDetails(): void;
  openPrivacy(event: { preventDefault(): void }): void;
  categoryName(id: CategoryId): string;
}

type Gtag = (...args: unknown[]) => void;

/** Consent Mode v2 bridge: pushes in gtag's `arguments` form to dataLayer, as gtag.js reads it. */
function consentMode(ctx: Pick<Context, 'win' | 'config'>): ((command: 'default' | 'update', categories: Categories) => void) | null {
  const w = ctx.win as unknown as { dataLayer?: unknown[]; gtag?: Gtag };
  const present = typeof w.gtag === 'function' || Array.isArray(w.dataLayer);
  if (ctx.config.gcm === 'off' || (ctx.config.gcm === 'auto' && !present)) return null;
  return (command, categories) => {
    if (!Array.isArray(w.dataLayer)) w.dataLayer = [];
    const dataLayer = w.dataLayer;
    // eslint-disable-next-line prefer-rest-params -- gtag.js reads real Arguments objects
    const push: Gtag = typeof w.gtag === 'function' ? w.gtag : function () { dataLayer.push(arguments); };
    push('consent', command, command === 'default' ? { ...consentModeSignals(categories), wait_for_update: 500 } : consentModeSignals(categories));
  };
}

/** Before the DOM is ready: Consent Mode default (before any tag) and the blocker. */
export function startConsentEarly(ctx: Context): ConsentEarly {
  consentMode(ctx)?.('default', ctx.consent.get().categories);
  const early: ConsentEarly = {
    openSettings: () => {},
    blocker: startBlocker({
      doc: ctx.doc,
      win: ctx.win as Window & typeof globalThis,
      lifetime: ctx.lifetime,
      config: ctx.config,
      t: ctx.t,
      allows: (id) => ctx.consent.allows(id),
      openSettings: () => early.openSettings(),
      log: ctx.log,
    }),
  };
  return early;
}

/** The consent widget (banner, dialog, logging, forms, revoke button). */
export function startConsentWidget(ctx: Context, early: ConsentEarly): ConsentWidget {
  const { config, consent, doc, win, t, lifetime } = ctx;
  // the widget's own calls: a failure is kept (queue) or shown in place, and named in the debug box
  const request = reporting(ctx.request, (error, options) =>
    ctx.debug.add(t.consentCallTitle, `${options.url.split('task=')[1] ?? options.url}: ${describeError(error, t)}`),
  );
  const storage = guardedStorage(() => win.localStorage);
  const session = guardedStorage(() => win.sessionStorage);
  const gcm = consentMode(ctx);
  const ui: Store<ConsentUi> = createStore<ConsentUi>({ open: false, draft: consent.get().categories, details: null });
  const descriptions = new Map<CategoryId, Details>();
  const load = lazySurface(() => import('../ui/consent/view'), (error) => ctx.log.error('consent banner failed to load', error));
  let viewMounted = false;
  let revokeButton: HTMLButtonElement | null = null;
  let opener: Element | null = null;

  const categoryName = (id: CategoryId): string => config.categories[id].name || t[`category${id}`];

  const show = (): void => {
    opener = doc.activeElement;
    ui.set((s) => ({ ...s, open: true, draft: consent.get().categories }));
    revokeButton?.setAttribute('hidden', '');
    if (viewMounted) return;
    viewMounted = true;
    void load().then((view) => {
      if (view && !lifetime.disposed) lifetime.add(view.mountConsent(doc, ui, actions, t, config));
    });
  };

  const hide = (): void => {
    ui.set((s) => ({ ...s, open: false, details: null }));
    syncRevoke();
    const back = opener as HTMLElement | null;
    if (back?.isConnected && typeof back.focus === 'function') back.focus();
  };

  const syncRevoke = (): void => {
    const wanted = config.revokable && consent.get().chosen && !ui.get().open;
    if (wanted && !revokeButton) {
      const surface = findOrCreateSurface(doc, 'consent', baseCss + css);
      revokeButton = doc.createElement('button');
      revokeButton.type = 'button';
      revokeButton.className = 'revoke';
      revokeButton.textContent = t.consentRevoke;
      revokeButton.addEventListener('click', () => show());
      surface.shadow.appendChild(revokeButton);
      lifetime.add(() => surface.host.remove());
    }
    if (revokeButton) revokeButton.hidden = !wanted;
  };

  const choose = async (status: ConsentStatus, wanted: Categories, reloadDelay = 0): Promise<void> => {
    // announced before the store's listeners run: the tracker does not start on a page about to reload
    const changed = consent.choose(status, wanted, config.reloadAfterChange);
    const now = consent.get().categories;
    gcm?.('update', now);
    hide();
    if (config.logConsent) {
      const entries = logEntries(config, status !== 'deny', changed.map((id) => [id, now[id]]));
      await Promise.race([deliver(request, storage, entries), new Promise((resolve) => lifetime.timeout(() => resolve(null), LOG_WAIT_MS))]);
    }
    const denied = status === 'deny' && config.denyMessageEnabled;
    if (changed.length > 0 && config.reloadAfterChange) {
      if (denied) writeFlag(session, DENY_FLAG, true);
      lifetime.timeout(() => win.location.reload(), reloadDelay);
      return;
    }
    if (denied) ctx.notify(config.denyMessage || t.consentDenyMessage, { status: 'warning' });
    void early.blocker.release();
  };

  const offered = (): Categories => {
    const out = {} as Categories;
    for (const id of CATEGORY_IDS) out[id] = config.categories[id].offered || config.categories[id].locked;
    return out;
  };

  const actions: ConsentActions = {
    toggle: (id, on) => ui.set((s) => ({ ...s, draft: { ...s.draft, [id]: config.categories[id].locked ? true : on } })),
    decline: () => void choose('deny', { 1: true, 2: false, 3: false, 4: false }),
    save: () => {
      const draft = ui.get().draft;
      void choose(draft[2] || draft[3] || draft[4] ? 'allow' : 'deny', draft);
    },
    acceptAll: () => void choose('allow', offered()),
    showDetails(id) {
      const cached = descriptions.get(id);
      ui.set((s) => ({ ...s, details: cached ?? { id, state: 'loading', nodes: [] } }));
      if (cached && cached.state !== 'error') return;
      const url = config.descriptionUrl
        ? `${config.descriptionUrl}&gdpr_cookie_category=${id}`
        : `${config.base}index.php?option=com_gdpr&task=user.getCookieCategoryDescription&format=raw&gdpr_cookie_category=${id}`;
      void request<string>({ url, responseType: 'text' }).then((result) => {
        const details: Details = result.ok
          ? { id, state: 'ready', nodes: sanitizeFragment(String(result.data).slice(0, 64 * 1024), win.location.href) }
          : { id, state: 'error', nodes: [] };
        descriptions.set(id, details);
        ui.set((s) => (s.details?.id === id ? { ...s, details } : s));
      });
    },
    closeDetails: () => ui.set((s) => ({ ...s, details: null })),
    openPrivacy(event) {
      if (!config.privacyUrl) return;
      const left = Math.max(0, (win.screen.availWidth - POPUP.width) / 2);
      const top = Math.max(0, (win.screen.availHeight - POPUP.height) / 2);
      const popup = win.open(config.privacyUrl, 'pagepulse-privacy', `popup,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`);
      if (popup) event.preventDefault(); // blocked: the link navigates as a plain link
    },
    categoryName,
  };

  // form consent (com_gdpr): a privacy checkbox stores or deletes the consent with the tracked fields
  lifetime.listen(
    doc,
    'change',
    (event) => {
      const box = event.target as HTMLInputElement | null;
      if (!box || box.type !== 'checkbox' || !box.form) return;
      const form = box.form;
      if (!/privacy|gdpr/i.test(`${box.name} ${box.id}`) && !form.hasAttribute('data-pagepulse-consent')) return;
      const fields: Array<[string, string]> = [
        ['url', win.location.href],
        ['formid', form.id],
        ['formname', form.getAttribute('name') ?? ''],
      ];
      for (const field of Array.from(form.elements) as HTMLInputElement[]) {
        const key = field.id || field.name;
        if (!key || field === box || field.type === 'hidden' || !isTrackedField(key) || field.getClientRects().length === 0) continue;
        fields.push([`formfields[${fieldLabel(key)}]`, field.value]);
      }
      const task = box.checked ? 'storeConsent' : 'deleteConsent';
      void request({ url: `${config.base}index.php?option=com_gdpr&task=user.${task}&format=raw`, data: fields, responseType: 'text', keepalive: true });
    },
    { capture: true },
  );

  early.openSettings = show;
  // not needed for the page's first frame: re-sending queued logs (their first storage read costs
  // milliseconds), the deny message carried over the reload and the revoke button wait for an
  // idle moment, so the host page's own start-up goes first
  lifetime.idle(() => {
    void flushQueue(request, storage);
    if (readFlag(session, DENY_FLAG)) {
      writeFlag(session, DENY_FLAG, false);
      ctx.notify(config.denyMessage || t.consentDenyMessage, { status: 'warning' });
    }
    syncRevoke();
  }, IDLE_WAIT_MS);
  void early.blocker.release();

  if (!consent.get().chosen) {
    if (acceptsByCountry(config.country)) {
      const gpc = (win.navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
      const categories = automaticCategories(offered(), gpc);
      void choose(categories[2] || categories[3] || categories[4] ? 'allow' : 'deny', categories, COUNTRY_RELOAD_MS);
    } else show();
  } else if (config.openAlwaysDeclined && consent.get().status === 'deny') show(); // com_gdpr: ask again after a decline

  return {
    open: show,
    revoke: show,
    set(categories) {
      const next = { ...consent.get().categories };
      for (const id of CATEGORY_IDS) if (typeof categories[id] === 'boolean') next[id] = categories[id]!;
      void choose(next[2] || next[3] || next[4] ? 'allow' : 'deny', next);
    },
    dispose: () => {},
  };
}

/**
 * A storage that may be missing or throw on access (privacy modes, sandboxed frames), looked up on
 * first use: the first localStorage access opens the store, milliseconds a first visit's banner
 * does not wait for. Every caller reads and writes inside its own try, so a missing one is no error.
 */
function guardedStorage(get: () => Storage): QueueStorage {
  let storage: Storage | undefined;
  const use = (): Storage => (storage ??= get());
  return {
    getItem: (key) => use().getItem(key),
    setItem: (key, value) => use().setItem(key, value),
    removeItem: (key) => use().removeItem(key),
  };
}

function readFlag(storage: QueueStorage | null, key: string): boolean {
  try {
    return storage?.getItem(key) === '1';
  } catch {
    return false;
  }
}

function writeFlag(storage: QueueStorage | null, key: string, on: boolean): void {
  try {
    if (on) storage?.setItem(key, '1');
    else storage?.removeItem(key);
  } catch {
    // no storage: the notification is simply not carried over
  }
}
