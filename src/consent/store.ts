import { CATEGORY_IDS, type Config } from '../config';
import type { Categories, ConsentState, ConsentStore } from '../context';
import type { CookieJar } from '../platform/cookies';
import { createStore } from '../platform/store';
import { startupConsent } from './startup';

export { defaultCategories } from './startup';

/** com_gdpr's consent cookie. */
export const STATUS_COOKIE = 'cookieconsent_status';
/** Our addition: the enabled categories joined by `.`, so choices survive without a server session. */
export const CATEGORIES_COOKIE = 'cookieconsent_categories';
/** Consent lifetime (site-spec section 9). */
export const CONSENT_DAYS = 365;

// The state and store types live in context.ts (the contract every feature sees); re-exported
// here so consent/ keeps importing them from its own store.
export type { Categories, ConsentState, ConsentStatus, ConsentStore } from '../context';

/** Read the consent cookies (and, for a com_gdpr status, its stored toggles) by the start-up rule. */
export function readConsent(jar: CookieJar, config: Config, choices: () => string | null = () => null): ConsentState {
  return startupConsent({ status: jar.get(STATUS_COOKIE), categories: jar.get(CATEGORIES_COOKIE), choices }, config);
}

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
  return {
    get: store.get,
    subscribe: store.subscribe,
    allows: (id) => store.get().categories[id],
    choose(status, wanted, reloadOnChange = false) {
      const previous = store.get();
      const categories = { ...previous.categories };
      for (const id of CATEGORY_IDS) {
        const value = wanted[id];
        if (typeof value === 'boolean') categories[id] = value;
        if (config.categories[id].locked) categories[id] = true;
      }
      const changed = CATEGORY_IDS.filter((id) => categories[id] !== previous.categories[id]);
      jar.set(STATUS_COOKIE, status, CONSENT_DAYS);
      jar.set(CATEGORIES_COOKIE, formatCategories(categories), CONSENT_DAYS);
      store.set(
        changed.length > 0 && reloadOnChange
          ? { status, categories, chosen: true, reloading: true }
          : { status, categories, chosen: true },
      );
      return changed;
    },
  };
}
