/**
 * The admin area's JSON API (`/admin/api/*`): the shapes the server's admin routes answer and the
 * admin app reads, in one file for both (collector/server/admin/, collector/admin/). Times are ISO
 * strings on the wire; days `YYYY-MM-DD` in the site's time zone.
 */

/** The picker's choices; `custom` with `from` and `to` (days in the site's time zone). */
export type PeriodName = 'today' | '7d' | '30d' | '12m' | 'custom';

/** The period an answer is for, as the picker shows it. */
export interface PeriodInfo {
  name: PeriodName;
  timeZone: string;
  unit: 'hour' | 'day' | 'month';
  days: { current: [string, string]; previous: [string, string] };
}

/** One figure in the chosen period and in the one before. */
export interface Compared {
  current: number;
  previous: number;
}

/** One row of a breakdown (pages, referrers, devices...). */
export interface Row extends Compared {
  label: string;
}

/** `GET /admin/api/online`. */
export interface Online {
  online: number;
  pages: Array<{ page: string; visitors: number }>;
  at: string;
}

/**
 * What the overview can be filtered by (`filter=<name>:<value>`, repeatable, all must match) and
 * the breakdown of `Traffic` each filter's values come from (its rows are what the admin clicks).
 * One entry per dimension: the server's conditions are in collector/server/store/visits-dimensions.ts and visits-count.ts.
 */
export const FILTERS = {
  page: 'pages',
  entry: 'entryPages',
  exit: 'exitPages',
  source: 'sources',
  referrer: 'referrers',
  utm_source: 'utmSource',
  utm_medium: 'utmMedium',
  utm_campaign: 'utmCampaign',
  utm_term: 'utmTerm',
  utm_content: 'utmContent',
  device: 'devices',
  browser: 'browsers',
  os: 'operatingSystems',
  country: 'countries',
  screen: 'screens',
} as const satisfies Record<string, Exclude<keyof Traffic, 'period' | 'summary' | 'series' | 'filters'>>;
/** One filter's name. */
export type FilterName = keyof typeof FILTERS;
/** The filters an answer was counted with, in the order given. */
export type Filters = Array<{ name: FilterName; value: string }>;

/** `GET /admin/api/traffic`. */
export interface Traffic {
  period: PeriodInfo;
  filters: Filters;
  summary: Record<'views' | 'visitors' | 'visits' | 'bounceRate' | 'timeOnPage', Compared>;
  series: Array<{ label: string; views: number; visitors: number; previousLabel: string | null; previousViews: number }>;
  pages: Array<Row & { timeOnPage: number }>;
  entryPages: Row[];
  exitPages: Row[];
  /** Where visits came from, by source name (Google, or the referring host without `www.`). */
  sources: Row[];
  /** Referring pages: host and path (no query), as far as the referring page's policy let through. */
  referrers: Row[];
  utmSource: Row[];
  utmMedium: Row[];
  utmCampaign: Row[];
  utmTerm: Row[];
  utmContent: Row[];
  devices: Row[];
  browsers: Row[];
  /** Operating systems by the user agent's name (`Windows`, `macOS`, `iOS`, `Android`, ...; `unknown`). */
  operatingSystems: Row[];
  /** Countries as ISO 3166-1 alpha-2 codes (`DE`), `unknown` for private and unlisted addresses. */
  countries: Row[];
  screens: Row[];
}

/** `GET /admin/api/clicks`: per page its clicks now and before, its link with the overlay (only for a page of the site), its top selectors. */
export interface ClickPages {
  period: PeriodInfo;
  /** The filters counted with (the overview's): a page keeps its clicks, a visit dimension the clicks of its visits. */
  filters: Filters;
  pages: Array<{ page: string; href: string | null; total: Compared; selectors: Array<{ selector: string } & Compared> }>;
}

/** Deciding visitors and the share (0..1) allowing each category. */
export interface Shares {
  visitors: number;
  shares: Record<'1' | '2' | '3' | '4', number>;
}

/** `GET /admin/api/consent-stats`. */
export interface ConsentStats {
  period: PeriodInfo;
  buckets: Array<Shares & { day: string }>;
  current: Shares;
  previous: Shares;
}

/** One record of the consent log: the session only as its pseudonym. */
export interface ConsentEntry {
  kind: 'generic' | 'category' | 'form';
  id: number;
  at: string;
  /** The pseudonym: the first 12 hex characters of the session's SHA-256. */
  visitor: string;
  /** The visitor's consent ID, where the bundle sent one (cookie-consent records only). */
  consentId: string | null;
  category: number | null;
  granted: boolean | null;
  userAgent: string;
  url: string | null;
  formId: string | null;
  formName: string | null;
  fields: Record<string, string> | null;
  deletedAt: string | null;
}

/** `GET /admin/api/consents`. */
export interface ConsentLog {
  timeZone: string;
  period?: PeriodInfo;
  consents: ConsentEntry[];
}

/** How long each kind of data is kept, in days (1 to 3650; nothing is kept forever). */
export interface RetentionDays {
  /** Page views, visits and their sessions. */
  visitRetentionDays: number;
  clickRetentionDays: number;
  /** Form consents (the form's fields, an e-mail address among them). */
  formRetentionDays: number;
  /** Cookie-consent records: the proof of consent. */
  consentRetentionDays: number;
}

/** `GET /admin/api/settings`. */
export interface AdminSettings extends RetentionDays {
  timeZone: string;
}

/** What the retention run deleted, per kind. */
export type Deleted = Record<string, number>;

/** `POST /admin/api/settings`. */
export interface SavedSettings extends AdminSettings {
  deleted: Deleted;
}

/** `POST /admin/api/erase` (`visitor` or `consent`). */
export interface Erased {
  sessions: number;
  records: number;
}

/** One read-only stats API token as listed (its first characters only: the token is shown once). */
export interface ApiToken {
  id: number;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** `GET /admin/api/tokens`. */
export interface ApiTokens {
  tokens: ApiToken[];
}

/** `POST /admin/api/tokens` (`name`): the token itself, this once. */
export interface NewApiToken {
  id: number;
  name: string;
  prefix: string;
  token: string;
}
