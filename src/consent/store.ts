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
/** Consent lifetime: 365 days, as com_gdpr's cookie. */
export const CONSENT_DAYS = 365;

// The state and store types live in context.ts (the contract every feature sees); re-exported
// here so consent/ keeps importing them from its own store.
export type { Categories, ConsentState, ConsentStatus, ConsentStore } from '../context';

/**
 * Read the consent cookies (and, for a com_gdpr status, its stored toggles) by the start-up rule.
 * A choice made under a lower policy revision than the page's does not count: a first visit.
 */
export function readConsent(jar: CookieJar, config: Config, choices: () => string | null = () => null): ConsentState {
  const current = config.revision <= Number(jar.get(REVISION_COOKIE));
  const state = startupConsent(
    { status: current ? jar.get(STATUS_COOKIE) : null, categories: jar.get(CATEGORIES_COOKIE), choices },
    config,
  );
  return { ...state, services: known(config, current ? (jar.get(SERVICES_COOKIE) ?? '').split('.') : []) };
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
  const store = createStore(readConsent(jar, config, choices), onError);
  const clear = (): void => {
    for (const name of cookiesToClear(jar.names(), config, store.get())) jar.remove(name);
  };
  const writeServices = (services: string[]): void =>
    services.length ? jar.set(SERVICES_COOKIE, services.join('.'), CONSENT_DAYS) : jar.remove(SERVICES_COOKIE);
  return {
    get: store.get,
    subscribe: store.subscribe,
    allows: (id) => store.get().categories[id],
    clear,
    allowService(key) {
      const previous = store.get();
      const services = known(config, [...previous.services, key]);
      if (previous.services.includes(key) || services.length === previous.services.length) return;
      writeServices(services);
      store.set({ ...previous, services });
    },
    choose(status, wanted, reloadOnChange = false, chosenServices) {
      const previous = store.get();
      const categories = { ...previous.categories };
      for (const id of CATEGORY_IDS) {
        const value = wanted[id];
        if (typeof value === 'boolean') categories[id] = value;
        if (config.categories[id].locked) categories[id] = true;
      }
      const changed = CATEGORY_IDS.filter((id) => categories[id] !== previous.categories[id]);
      const services = known(config, chosenServices ?? previous.services);
      // a service taken back is like a category switched off: what it loaded goes with a reload
      const narrowed = changed.length > 0 || previous.services.some((key) => !services.includes(key));
      jar.set(STATUS_COOKIE, status, CONSENT_DAYS);
      jar.set(CATEGORIES_COOKIE, formatCategories(categories), CONSENT_DAYS);
      jar.set(REVISION_COOKIE, String(config.revision), CONSENT_DAYS);
      writeServices(services);
      const state: ConsentState = { status, categories, chosen: true, services };
      store.set(narrowed && reloadOnChange ? { ...state, reloading: true } : state);
      clear();
      return changed;
    },
  };
}
