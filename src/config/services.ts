import type { CategoryId } from './categories';

// The built-in services table (docs/protocol.md#services), apart from the rest of the defaults
// (config.ts) because it is data: names, providers, address patterns, cookies and snippets.

/** A service: a provider whose blocked elements can be allowed on their own, and the cookies it sets on the site. */
export interface Service {
  category: Exclude<CategoryId, 1>;
  /** Display name on placeholders and in the dialog. */
  name: string;
  /** Who receives what loading it sends (placeholder, dialog). */
  provider?: string;
  /** The provider's privacy policy, linked from the placeholder and the dialog. */
  privacyUrl?: string;
  /** What it is for: `video`, `map`, `statistics`, `ads`, `tags` (built-in texts), or the site's own words. */
  purpose?: string;
  /**
   * Address patterns whose scripts and iframes belong to it: `host` (the host or a subdomain),
   * `host/path` (and the path starts so), `*` for one whole label (`maps.google.*`, or with a path
   * `google.*` + `/maps`).
   */
  hosts: string[];
  /** Cookie name patterns (exact, or a prefix and `*`) cleared when it is no longer allowed. */
  cookies: string[];
  /** Text that marks an inline script as this service's snippet (`_paq.push`): held like its scripts. */
  snippets?: string[];
}

const GOOGLE = 'Google Ireland Limited';
const GOOGLE_PRIVACY = 'https://policies.google.com/privacy';

/**
 * The built-in services. Cookie names are the ones each provider documents for its script on the
 * site's own domain (Google Analytics 4 `_ga`, `_ga_<id>`, and Universal Analytics' `_gid`, `_gat*`;
 * Matomo's `_pk_*` and Tag Manager's `mtm_*`; Meta's `_fbp`, `_fbc`); the embeds set theirs on
 * their own domains, which a page cannot clear. Snippets are the vendors' own install code, as
 * they hand it out (docs/protocol.md#services).
 */
export const SERVICES: Record<string, Service> = {
  youtube: {
    category: 4,
    name: 'YouTube',
    provider: GOOGLE,
    privacyUrl: GOOGLE_PRIVACY,
    purpose: 'video',
    hosts: ['youtube.com', 'youtube-nocookie.com'],
    cookies: [],
  },
  vimeo: {
    category: 4,
    name: 'Vimeo',
    provider: 'Vimeo.com, Inc.',
    privacyUrl: 'https://vimeo.com/privacy',
    purpose: 'video',
    hosts: ['vimeo.com'],
    cookies: [],
  },
  googlemaps: {
    category: 4,
    name: 'Google Maps',
    provider: GOOGLE,
    privacyUrl: GOOGLE_PRIVACY,
    purpose: 'map',
    hosts: ['maps.google.*', 'maps.googleapis.com', 'google.*/maps'],
    cookies: [],
  },
  'google-analytics': {
    category: 3,
    name: 'Google Analytics',
    provider: GOOGLE,
    privacyUrl: GOOGLE_PRIVACY,
    purpose: 'statistics',
    hosts: ['google-analytics.com', 'analytics.google.com', 'googletagmanager.com/gtag/'],
    cookies: ['_ga', '_ga_*', '_gid', '_gat', '_gat_*'],
    // gtag.js's snippet configures it (a consent-default-only snippet is not held)
    snippets: ["gtag('config'", 'gtag("config"', 'google-analytics.com/analytics.js'],
  },
  'google-tag-manager': {
    category: 3,
    name: 'Google Tag Manager',
    provider: GOOGLE,
    privacyUrl: GOOGLE_PRIVACY,
    purpose: 'tags',
    hosts: ['googletagmanager.com'],
    cookies: [],
    snippets: ['googletagmanager.com/gtm.js'],
  },
  matomo: {
    category: 3,
    name: 'Matomo',
    purpose: 'statistics',
    hosts: ['matomo.cloud'],
    cookies: ['_pk_*', 'mtm_*'],
    snippets: ['_paq.push', '_mtm.push'],
  },
  'meta-pixel': {
    category: 4,
    name: 'Meta Pixel',
    provider: 'Meta Platforms Ireland Limited',
    privacyUrl: 'https://www.facebook.com/privacy/policy/',
    purpose: 'ads',
    hosts: ['facebook.net'],
    cookies: ['_fbp', '_fbc'],
    snippets: ['connect.facebook.net', "fbq('init'", 'fbq("init"'],
  },
};
