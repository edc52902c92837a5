import type { Lang } from '../i18n';
import { CATEGORY_IDS, type CategoryId } from './categories';
import { SERVICES, type Service } from './services';

export { CATEGORY_IDS, type CategoryId };
export type { Service };

/** The one validated configuration the bundle runs on. */
export interface Config {
  /** Site base address, ending with `/`; every endpoint hangs off it. */
  base: string;
  /** UI language. */
  lang: Lang;
  /** Debug box forced on (data-debug="1", ?pagepulse-debug=1); the server's enable_debug can also turn it on. */
  debug: boolean;
  /** Run the analytics tracker (heartbeat, clicks, badges). */
  tracker: boolean;
  /** Run the consent widget (banner, blocking, logging). */
  consent: boolean;
  /** Track only while category 3 (Statistiken) is on. */
  respectConsent: boolean;
  /** Keep-alive interval in ms, or null for off. */
  keepalive: number | null;
  /** Keep-alive address (Joomla option system.keepalive.uri), else `{base}index.php?option=com_ajax&format=json`. */
  keepaliveUrl: string | null;
  /** Selector of the heatmap state input whose value suffixes click selectors. */
  stateInput: string | null;
  /** Click selectors: the original client's (`original`, the default) or without state classes (`stable`). */
  selectors: 'original' | 'stable';
  /** Privacy (and cookie) policy page. */
  privacyUrl: string | null;
  /** Visitor's ISO country, when the site knows it (country accept rule). */
  country: string | null;
  /** Joomla's anti-forgery token (option csrf.token); sent only when it is 32 hex characters. */
  csrfToken: string | null;
  /** Request timeout in ms. */
  requestTimeout: number;
  /** opt-out (categories as their defaults before a choice) or opt-in (only necessary). */
  complianceType: 'opt-in' | 'opt-out';
  /** Whether the revoke button stays on the page after a choice. */
  revokable: boolean;
  /** Reload the page after the categories changed. */
  reloadAfterChange: boolean;
  /** Show placeholders over blocked content. */
  placeholders: boolean;
  /** Site's own placeholder text (com_gdpr placeholderBlockedResourcesText). */
  placeholderText: string | null;
  /** Show the deny notification after a decline. */
  denyMessageEnabled: boolean;
  /** Site's own deny message. */
  denyMessage: string | null;
  /** Log consent to the server (gdpr_enable_log_cookie_consent). */
  logConsent: boolean;
  /** Show the categories in the banner (gdprUseCookieCategories). */
  useCategories: boolean;
  /** Address of the category description endpoint (gdpr_ajaxendpoint_cookie_category_desc). */
  descriptionUrl: string | null;
  /** Google Consent Mode v2 bridge. */
  gcm: 'auto' | 'on' | 'off';
  /** Reopen the banner on each page view after a decline (com_gdpr openAlwaysDeclined). */
  openAlwaysDeclined?: boolean;
  /** The site's own banner texts (com_gdpr option names; unset = the built-in text, so the defaults cost no bytes). Markup allowed, rendered through the allowlist. */
  headerText?: string;
  messageText?: string;
  cookieSettingsDesc?: string;
  /** The site's own labels (plain text after the allowlist). */
  denyText?: string;
  allowText?: string;
  cookieSettingsLabel?: string;
  privacyPolicyLinkText?: string;
  cookiePolicyLinkText?: string;
  /** Cookie policy page (com_gdpr cookiePolicyLink), linked beside the privacy policy. */
  cookiePolicyLink?: string;
  /** Reference collector for the QA heatmap overlay's reads; null = where the script came from. */
  collector: string | null;
  /** Per category: offered in the UI, display name, locked, on before a choice, blocked host names. */
  categories: Record<CategoryId, CategoryConfig>;
  /** Known services (docs/protocol.md#5b-services-clearing-revision): the built-in table merged with `PagePulseConfig.services`. */
  services: Record<string, Service>;
  /** The consent policy's revision: a choice made under a lower one no longer counts. */
  revision: number;
}

/** One consent category as the site configured it. */
export interface CategoryConfig {
  /** Offered in the UI (com_gdpr cookieCategoryNEnable). */
  offered: boolean;
  /** Site's own display name, or null for the built-in one. */
  name: string | null;
  /** Cannot be switched off. */
  locked: boolean;
  /** On before the visitor chose (opt-out model). */
  defaultOn: boolean;
  /** Scripts and iframes from these address patterns (as a service's `hosts`) belong to this category. */
  domains: string[];
  /** The site's own cookie name patterns of this category, cleared while it is off. */
  cookies: string[];
  /** The server printed gdprCookieCategoryDisabledN = 1 (off in the visitor's session): a com_gdpr choice never turns it on. */
  disabled?: boolean;
}

/**
 * Built-in host lists for blocking later-added resources (`categories.N.domains` replaces them);
 * the services' hosts (below) block for their category too, so they are not repeated here.
 */
const DEFAULT_DOMAINS: Record<CategoryId, string[]> = {
  1: [],
  2: [],
  3: ['hotjar.com', 'clarity.ms'],
  4: [
    'facebook.com',
    'doubleclick.net',
    'googleadservices.com',
    'googlesyndication.com',
    'tiktok.com',
    'ads-twitter.com',
    'linkedin.com',
  ],
};

/** Defaults: the constants of docs/protocol.md#constants and #configuration. */
export function defaultConfig(): Config {
  const categories = {} as Record<CategoryId, CategoryConfig>;
  for (const id of CATEGORY_IDS) {
    categories[id] = {
      offered: true,
      name: null,
      locked: id === 1,
      defaultOn: id <= 2,
      domains: [...DEFAULT_DOMAINS[id]],
      cookies: [],
    };
  }
  return {
    base: '/',
    lang: 'de',
    debug: false,
    tracker: true,
    consent: true,
    respectConsent: true,
    keepalive: 45_000,
    keepaliveUrl: null,
    stateInput: null,
    selectors: 'original',
    privacyUrl: null,
    country: null,
    csrfToken: null,
    requestTimeout: 10_000,
    complianceType: 'opt-out',
    revokable: true,
    reloadAfterChange: true,
    placeholders: true,
    placeholderText: null,
    denyMessageEnabled: true,
    denyMessage: null,
    logConsent: true,
    useCategories: true,
    descriptionUrl: null,
    gcm: 'auto',
    collector: null,
    categories,
    services: { ...SERVICES },
    revision: 0,
  };
}
