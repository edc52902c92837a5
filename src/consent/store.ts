import { CATEGORY_IDS, type CategoryId, type Config } from '../config';
import type { CookieJar } from '../platform/cookies';
import { createStore } from '../platform/store';

/** com_gdpr's consent cookie. */
export const STATUS_COOKIE = 'cookieconsent_status';
/** Our addition: the enabled categories joined by `.`, so choices survive without a server session. */
export const CATEGORIES_COOKIE = 'cookieconsent_categories';
/** Consent lifetime (site-spec section 9). */
export const CONSENT_DAYS = 365;

/** What the visitor answered: com_gdpr's three values. */
export type ConsentStatus = 'allow' | 'deny' | 'dismiss';
/** On/off per category. */
export type Categories = Record<CategoryId, boolean>;

/** The consent state (protocol section 9's `consent.get()` shape plus `chosen`). */
export interface ConsentState {
  /** null until the visitor chose. */
  status: ConsentStatus | null;
  categories: Categories;
  /** A choice was made (a status cookie exists). */
  chosen: boolean;
  /** The last choice changed categories and the page is about to reload: nothing new starts on this page. */
  reloading?: true;
}

/** The React-free consent store. */
export interface ConsentStore {
  get(): ConsentState;
  subscribe(listener: () => void): () => void;
  /**
   * Record a choice: locked categories stay on; writes both cookies; returns the categories that
   * changed. With `reloadOnChange`, a choice that changed any category marks the state `reloading`.
   */
  choose(status: ConsentStatus, categories: Partial<Categories>, reloadOnChange?: boolean): CategoryId[];
  /** Whether a category is on now. */
  allows(id: CategoryId): boolean;
}

/** The categories before any choice: opt-out uses each category's default, opt-in only the locked ones. */
export function defaultCategories(config: Config): Categories {
  const out = {} as Categories;
  for (const id of CATEGORY_IDS) {
    const category = config.categories[id];
    out[id] = category.locked || (config.complianceType === 'opt-out' && category.defaultOn);
  }
  return out;
}

/** Read the consent cookies; anything malformed counts as "no choice". */
export function readConsent(jar: CookieJar, config: Config): ConsentState {
  const raw = jar.get(STATUS_COOKIE);
  const status: ConsentStatus | null = raw === 'allow' || raw === 'deny' || raw === 'dismiss' ? raw : null;
  const defaults = defaultCategories(config);
  if (!status) return { status: null, categories: defaults, chosen: false };
  const listed = jar.get(CATEGORIES_COOKIE);
  let categories: Categories;
  if (listed !== null && /^[1-4](\.[1-4])*$|^$/.test(listed)) {
    const on = new Set(listed.split('.').map(Number));
    categories = {} as Categories;
    for (const id of CATEGORY_IDS) categories[id] = on.has(id);
  } else {
    // a status set by com_gdpr itself, without our categories cookie
    categories = {} as Categories;
    for (const id of CATEGORY_IDS) categories[id] = status === 'allow' ? true : status === 'deny' ? false : defaults[id];
  }
  for (const id of CATEGORY_IDS) if (config.categories[id].locked) categories[id] = true;
  return { status, categories, chosen: true };
}

/** Serialise the categories for the categories cookie (`1.2`). */
export function formatCategories(categories: Categories): string {
  return CATEGORY_IDS.filter((id) => categories[id]).join('.');
}

/** Create the consent store over a cookie jar. */
export function createConsentStore(jar: CookieJar, config: Config, onError?: (error: unknown) => void): ConsentStore {
  const store = createStore(readConsent(jar, config), onError);
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
      store.set(changed.length > 0 && reloadOnChange ? { status, categories, chosen: true, reloading: true } : { status, categories, chosen: true });
      return changed;
    },
  };
}
