import type { CategoryId, Config } from '../config';
import type { Messages } from '../i18n';
import type { Lifetime } from '../platform/lifetime';
import type { Requester } from '../platform/request';
import type { Store } from '../platform/store';
import type { Blocker } from './blocker';
import type { CategoryDetails } from './descriptions';
import type { LogQueue } from './log';
import type { Categories, ConsentStore } from './store';

// The consent controller's contracts (controller.ts): what the view shows and can do, the UI port
// main.ts injects, the handle of the public API, and what the controller is built from.

/** What the consent view shows: the banner (open), its checkboxes (draft) and the dialog (details). */
export interface ConsentViewState {
  open: boolean;
  draft: Categories;
  /** The services the visitor allows on their own, as the banner's switches stand. */
  services: string[];
  details: CategoryDetails | null;
  /** The consent ID, shown in the dialog so the visitor can cite it. */
  id: string | null;
  /** Asked again because the site's policy revision is newer than the visitor's choice. */
  outdated: boolean;
}

/** What the view can do. */
export interface ConsentActions {
  toggle(id: CategoryId, on: boolean): void;
  toggleService(key: string, on: boolean): void;
  decline(): void;
  save(): void;
  acceptAll(): void;
  showDetails(id: CategoryId): void;
  closeDetails(): void;
  openPrivacy(event: { preventDefault(): void }): void;
  categoryName(id: CategoryId): string;
}

/** The UI the controller drives: provided by ui/consent and injected by main.ts, so consent/ never imports ui/. */
export interface ConsentViewPort {
  /** Mount the banner and dialog over the view state; only the first call mounts. */
  mountView(view: Store<ConsentViewState>, actions: ConsentActions): void;
  /** Show or hide the revoke button (created on the first show); a click calls `reopen`. */
  revokeButton(visible: boolean, reopen: () => void): void;
}

/** The consent feature's handle for the public API. */
export interface ConsentHandle {
  /** Open the banner with the current choice. */
  open(): void;
  /** Withdraw consent: back to Notwendig only, no service, their cookies cleared, logged as a decline. */
  revoke(): void;
  /** Set categories as if the visitor saved them in the banner. */
  set(categories: Partial<Record<CategoryId, boolean>>): void;
  /** Allow a service on its own (a placeholder's "always allow"): stored, logged, released in place. */
  allowService(key: string): void;
}

/** What the controller works with; main.ts builds it from the context (consent/index.ts). */
export interface ConsentControllerDeps {
  config: Config;
  consent: ConsentStore;
  t: Messages;
  win: Window;
  doc: Document;
  lifetime: Lifetime;
  /** The widget's request helper: a failure is kept (queue) or shown in place. */
  request: Requester;
  notify(text: string, options: { status: 'warning' }): void;
  log: { error(...args: unknown[]): void };
  blocker: Pick<Blocker, 'release' | 'unlocks'>;
  ui: ConsentViewPort;
  /** The page's cookies: the log queue's marker (consent/log.ts). */
  cookies: LogQueue['cookies'];
  /** The debug box: a log endpoint the server does not have is named there, once. */
  debug: { add(title: string, text: string): void };
}
