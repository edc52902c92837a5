/** What the features hand the store, and what its reads answer (the store's own vocabulary). */

/** Who sent a request: the stored session (SHA-256 of the cookie), the browser's user agent, the address as stored. */
export interface Visitor {
  session: string;
  userAgent: string;
  ip: string;
}

/** The campaign parameters, each stored in its own column. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
/** One campaign parameter's name. */
export type UtmField = (typeof UTM_FIELDS)[number];

/** What the dashboard groups visitors by; `unknown` when the user agent says nothing known. */
export type DeviceClass = 'desktop' | 'mobile' | 'tablet' | 'tv' | 'bot' | 'unknown';

/** Device class, browser and operating system names (null when unknown) of one user agent. */
export interface AgentInfo {
  device: DeviceClass;
  browser: string | null;
  os: string | null;
}

/** One stream.display call. */
export interface Heartbeat {
  page: string;
  initialize: boolean;
  deviceWidth: number | null;
  deviceHeight: number | null;
  /** First heartbeat of a page view only: where the visitor came from, if another site (visitor/page.ts). */
  referrer?: { host: string; path: string; source: string } | null;
  /** First heartbeat of a page view only: the address's campaign parameters. */
  utm?: Record<UtmField, string | null>;
  /** First heartbeat of a page view only: the user agent parsed. */
  agent?: AgentInfo | null;
  /**
   * First heartbeat of a page view only: the country of the client's full address (ISO 3166-1
   * alpha-2), null when unknown. The address itself is never stored whole for it.
   */
  country?: string | null;
}

/** The live counts behind the statistics module's badges. */
export interface Presence {
  onPage: number;
  online: number;
  total: number;
}

/** A form consent's identity: the same form on the same page for the same visitor. */
export interface FormRef {
  url: string;
  formId: string;
  formName: string;
}

/**
 * What migrations 3 and 5 need from the visitor feature for data stored before them (the store has
 * no parser of its own): a user agent described, a page address without QA switches and campaign,
 * a referring host's source name.
 */
export interface LegacyParsers {
  agent(userAgent: string): AgentInfo;
  page(address: string): { page: string; utm: Record<UtmField, string | null> };
  /** Migration 5: the source name of a referring host stored before it. */
  source(host: string): string;
}
