import type { CategoryId, Config } from './config';
import type { Messages } from './i18n';
import type { CookieJar } from './platform/cookies';
import type { Lifetime } from './platform/lifetime';
import type { Requester } from './platform/request';
import type { DebugStore } from './platform/debug';

/** Notification statuses (UIkit's). */
export type NotifyStatus = 'primary' | 'success' | 'warning' | 'danger';
/** Options of `PagePulse.notify`. */
export interface NotifyOptions {
  status?: NotifyStatus;
  /** Milliseconds before it closes; 0 keeps it until closed. */
  timeout?: number;
}

/*
 * The consent state and store (made by consent/store.ts): here, in the contract, because the
 * Context carries the store and the events carry its snapshot; context.ts imports no feature.
 */

/** What the visitor answered: com_gdpr's three values. */
export type ConsentStatus = 'allow' | 'deny' | 'dismiss';
/** On/off per category. */
export type Categories = Record<CategoryId, boolean>;

/** The consent state (protocol section 9's `consent.get()` shape plus `chosen`). */
export interface ConsentState {
  /** null until the visitor chose. */
  status: ConsentStatus | null;
  categories: Categories;
  /** A choice was made (a status cookie exists, under the page's policy revision). */
  chosen: boolean;
  /** Services the visitor allowed on their own (`pagepulse_services`), whatever their category. */
  services: string[];
  /** The consent ID (`pagepulse_consent_id`): made with the first choice, kept across later ones and withdrawals. */
  id: string | null;
  /** A choice was made, but under a lower policy revision than the page's (or one seen before): asked again. */
  outdated?: true;
  /** The last choice changed categories and the page is about to reload: nothing new starts on this page. */
  reloading?: true;
}

/** The React-free consent store. */
export interface ConsentStore {
  get(): ConsentState;
  subscribe(listener: () => void): () => void;
  /**
   * Record a choice: locked categories stay on; writes both cookies; returns the categories that
   * changed. With `reloadOnChange`, a choice that takes something back (a category switched off, a
   * service no longer allowed), or that `unlocks` says allows what only a reload brings (com_gdpr's
   * server-blocked markup), marks the state `reloading`; one that only adds never does.
   */
  choose(
    status: ConsentStatus,
    categories: Partial<Categories>,
    reloadOnChange?: boolean,
    services?: readonly string[],
    unlocks?: (categories: Categories, services: readonly string[]) => boolean,
  ): CategoryId[];
  /** Whether a category is on now. */
  allows(id: CategoryId): boolean;
  /** Allow one service on its own (the placeholder's "always allow"); no reload, categories unchanged; false when nothing changed. */
  allowService(key: string): boolean;
  /** The policy revision choices are made under: the page's, or a higher one this browser met before. */
  revision: number;
  /** Read the cookies again under the configuration as it is now (the page's options arrived), unless a choice was made here. */
  reread(): void;
  /** Expire the cookies of every category and service not allowed now (docs/protocol.md#5b-services-clearing-revision). */
  clear(): void;
}

/** The consent state as the page sees it (`PagePulse.consent.get()`, `pagepulse:consent`). */
export type ConsentSnapshot = Pick<ConsentState, 'status' | 'categories' | 'chosen' | 'services' | 'id'>;

/** The CustomEvents the bundle dispatches on `document` (docs/protocol.md#public-api). */
export interface PagePulseEvents {
  'pagepulse:ready': { version: string };
  'pagepulse:consent': ConsentSnapshot;
  'pagepulse:heartbeat': unknown;
  'pagepulse:click': string;
}

/** Console output with the bundle's prefix; the page never sees an exception from us. */
export interface Logger {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** Everything a feature may use; built once by main.ts, the only place that reads `window`. */
export interface Context {
  config: Config;
  win: Window;
  doc: Document;
  lifetime: Lifetime;
  request: Requester;
  t: Messages;
  log: Logger;
  debug: DebugStore;
  consent: ConsentStore;
  /** The page's cookies (`document.cookie`). */
  cookies: CookieJar;
  /** Show a notification (top-center, auto-closing). */
  notify(text: string, options?: NotifyOptions): void;
  /** Dispatch a `pagepulse:*` event with a detached copy of the detail. */
  emit<K extends keyof PagePulseEvents>(name: K, detail: PagePulseEvents[K]): void;
}
