import { CATEGORY_IDS, type Config } from '../config';
import type { Categories, ConsentState, ConsentStore } from '../context';
import type { CookieJar } from '../platform/cookies';
import { createStore } from '../platform/store';
import { cookiesToClear } from './services';
import { startupConsent } from './startup';

export { defaultCategories } from './startup';

/** com_gdpr's consent cookie. */
export const STATUS_COOKIE = 'cookieconsent_status';
/** Our addition: the enabled categories joined by `.`, so choices survive without a server session. */
export const CATEGORIES_COOKIE = 'cookieconsent_categories';
/** The policy revision a choice was made under (absent = 0). */
export const REVISION_COOKIE = 'cookieconsent_revision';
/** The services allowed on their own, joined by `.`. */
export const SERVICES_COOKIE = 'pagepulse_services';
/** The consent ID, made with the first choice (docs/protocol.md#consent-log). */
export const ID_COOKIE = 'pagepulse_consent_id';
/**
 * The highest policy revision this browser met over an older choice: a page still carrying an
 * older `data-revision` (a cached copy) then does not apply the outdated choice again.
 */
export const SEEN_REVISION_COOKIE = 'pagepulse_revision';
/** A consent ID as we make it (22 base64url characters) or a site's own of similar shape. */
const ID_SHAPE = /^[\w-]{16,64}$/;
/** Consent lifetime: 365 days, as com_gdpr's cookie. */
export const CONSENT_DAYS = 365;

// The state and store types live in context.ts (the contract every feature sees); re-exported
// here so consent/ keeps importing them from its own store.
export type { Categories, ConsentState, ConsentStatus, ConsentStore } from '../context';

/** The revision choices count under: the page's, or a higher one met before (`pagepulse_revision`). */
export function effectiveRevision(jar: Pick<CookieJar, 'get'>, config: Pick<Config, 'revision'>): number {
  return Math.max(config.revision, Number(jar.get(SEEN_REVISION_COOKIE)) || 0);
}

/**
 * Read the consent cookies (and, for a com_gdpr status, its stored toggles) by the start-up rule.
 * A choice made under a lower policy revision than the page's (or than one this browser met
 * before) does not count: a first visit, marked `outdated` so the banner can say why.
 */
export function readConsent(jar: CookieJar, config: Config, choices: () => string | null = () => null): ConsentState {
  const current = effectiveRevision(jar, config) <= (Number(jar.get(REVISION_COOKIE)) || 0);
  const status = jar.get(STATUS_COOKIE);
  const state = startupConsent({ status: current ? status : null, categories: jar.get(CATEGORIES_COOKIE), choices }, config);
  const id = jar.get(ID_COOKIE);
  return {
    ...state,
    services: known(config, current ? (jar.get(SERVICES_COOKIE) ?? '').split('.') : []),
    id: id && ID_SHAPE.test(id) ? id : null,
    ...(status && !current ? { outdated: true as const } : {}),
  };
}

/** A new consent ID: 128 random bits as 22 base64url characters. */
export function newConsentId(random: (bytes: Uint8Array) => Uint8Array): string {
  return btoa(String.fromCharCode(...random(new Uint8Array(16))))
    .slice(0, 22)
    .replace(/[+/]/g, (c) => (c === '+' ? '-' : '_'));
}

/** The keys among `keys` that name a service of the table. */
const known = (config: Config, keys: readonly string[]): string[] =>
  keys.filter((key) => Object.prototype.hasOwnProperty.call(config.services, key));

/** Serialise the categories for the categories cookie (`1.2`). */
export function formatCategories(categories: Categories): string {
  return CATEGORY_IDS.filter((id) => categories[id]).join('.');
}

/** Create the consent store over a cookie jar. */
export function createConsentStore(
  jar: CookieJar,
  config: Config,
  onError?: (error: unknown) => void,
  choices?: () => string | null,
): ConsentStore {
  const initial = readConsent(jar, config, choices);
  const revision = effectiveRevision(jar, config);
  // an older choice met a newer revision: remembered, so an older page does not apply it again
  if (initial.outdated && revision > (Number(jar.get(SEEN_REVISION_COOKIE)) || 0))
    jar.set(SEEN_REVISION_COOKIE, String(revision), CONSENT_DAYS);
  const store = createStore(initial, onError);
  /** The consent ID, made on the first choice and refreshed (365 days) with each one. */
  const keepId = (): string => {
    const id = store.get().id ?? newConsentId((bytes) => crypto.getRandomValues(bytes));
    jar.set(ID_COOKIE, id, CONSENT_DAYS);
    return id;
  };
  const clear = (): void => {
    for (const name of cookiesToClear(jar.names(), config, store.get())) jar.remove(name);
  };
  const writeServices = (services: string[]): void =>
    services.length ? jar.set(SERVICES_COOKIE, services.join('.'), CONSENT_DAYS) : jar.remove(SERVICES_COOKIE);
  let touched = false;
  return {
    get: store.get,
    subscribe: store.subscribe,
    reread() {
      if (!touched) store.set(readConsent(jar, config, choices));
    },
    allows: (id) => store.get().categories[id],
    clear,
    revision,
    allowService(key) {
      const previous = store.get();
      const services = known(config, [...previous.services, key]);
      if (previous.services.includes(key) || services.length === previous.services.length) return false;
      writeServices(services);
      touched = true;
      store.set({ ...previous, services, id: keepId() });
      return true;
    },
    choose(status, wanted, reloadOnChange = false, chosenServices, unlocks) {
      const previous = store.get();
      const categories = { ...previous.categories };
      for (const id of CATEGORY_IDS) {
        const value = wanted[id];
        if (typeof value === 'boolean') categories[id] = value;
        if (config.categories[id].locked) categories[id] = true;
      }
      const changed = CATEGORY_IDS.filter((id) => categories[id] !== previous.categories[id]);
      const services = known(config, chosenServices ?? previous.services);
      // only a choice that takes something back needs a reload (what already runs cannot be
      // stopped in place); one that only adds is released in place by the blocker, unless what it
      // allows only the server releases (com_gdpr's blocked markup: `unlocks`)
      const narrowed =
        changed.some((id) => !categories[id]) ||
        previous.services.some((key) => !services.includes(key) && !categories[config.services[key]!.category]) ||
        !!unlocks?.(categories, services);
      const id = keepId();
      jar.set(STATUS_COOKIE, status, CONSENT_DAYS);
      jar.set(CATEGORIES_COOKIE, formatCategories(categories), CONSENT_DAYS);
      jar.set(REVISION_COOKIE, String(revision), CONSENT_DAYS);
      writeServices(services);
      const state: ConsentState = { status, categories, chosen: true, services, id };
      touched = true;
      store.set(narrowed && reloadOnChange ? { ...state, reloading: true } : state);
      clear();
      return changed;
    },
  };
}
