import type { Config } from '../config';
import type { Messages } from '../i18n';
import { sanitizeFragment, type SafeNode } from './sanitize';

/** The banner's texts: the site's com_gdpr texts where given, else the built-in ones. */
export interface BannerTexts {
  title: SafeNode[];
  message: SafeNode[];
  /** The site's cookieSettingsDesc under the category legend; empty when it gave none. */
  settingsDesc: SafeNode[];
  legend: string;
  decline: string;
  acceptAll: string;
  privacy: string;
  cookiePolicy: string;
}

/** Text of sanitized nodes, for slots that hold no markup (buttons, legend, link texts). */
function plain(nodes: SafeNode[]): string {
  return nodes.map((node) => (typeof node === 'string' ? node : plain(node.children))).join('');
}

/**
 * Resolve the banner texts. com_gdpr's client inserts every text as HTML, so a site's text may hold
 * markup and entities: each goes through the description allowlist (parsed inertly, never innerHTML);
 * where only text fits, the markup is reduced to its text.
 */
export function bannerTexts(config: Config, t: Messages, baseUrl: string): BannerTexts {
  const parse = (site: string | undefined, fallback: string): SafeNode[] => (site ? sanitizeFragment(site, baseUrl) : [fallback]);
  const text = (site: string | undefined, fallback: string): string => plain(parse(site, fallback)).trim() || fallback;
  return {
    title: parse(config.headerText, t.consentTitle),
    message: parse(config.messageText, t.consentText),
    settingsDesc: config.cookieSettingsDesc ? parse(config.cookieSettingsDesc, '') : [],
    legend: text(config.cookieSettingsLabel, t.consentCategories),
    decline: text(config.denyText, t.consentDecline),
    acceptAll: text(config.allowText, t.consentAcceptAll),
    privacy: text(config.privacyPolicyLinkText, t.consentPrivacy),
    cookiePolicy: text(config.cookiePolicyLinkText, t.consentCookiePolicy),
  };
}
