import { CATEGORY_IDS, type Config } from '../config';
import type { ConsentState } from './store';

/** The consent cookies are Notwendig: never cleared, whatever a site's pattern says. */
const OWN_COOKIES = /^(cookieconsent_|pagepulse_)/;

/** Whether `host` is one of `domains` or a subdomain of one. */
export function hostIn(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** Whether a cookie name matches a pattern: the exact name, or a prefix followed by `*`. */
export function matchesPattern(name: string, pattern: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
}

/**
 * The cookie patterns of everything a state does not allow: the site's patterns of each category
 * that is off, and those of each service whose category is off and that the visitor did not allow
 * on its own. Category 1 is never among them.
 */
export function disallowedPatterns(config: Config, state: ConsentState): string[] {
  const out: string[] = [];
  for (const id of CATEGORY_IDS) if (id > 1 && !state.categories[id]) out.push(...config.categories[id].cookies);
  for (const [key, service] of Object.entries(config.services))
    if (!state.categories[service.category] && !state.services.includes(key)) out.push(...service.cookies);
  return out;
}

/** The names among `names` that match a pattern, never the consent cookies themselves. */
export function cookiesToClear(names: readonly string[], patterns: readonly string[]): string[] {
  return names.filter((name) => name && !OWN_COOKIES.test(name) && patterns.some((p) => matchesPattern(name, p)));
}

/** The service a blocked element belongs to: its `data-service` (`named`), else the one whose hosts hold its address's. */
export function serviceOf(config: Config, named: string | null, host: string | null): string | null {
  if (named && Object.prototype.hasOwnProperty.call(config.services, named)) return named;
  if (host) for (const [key, service] of Object.entries(config.services)) if (hostIn(host, service.hosts)) return key;
  return null;
}
