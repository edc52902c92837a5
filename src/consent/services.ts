import { CATEGORY_IDS, type Config } from '../config';
import type { ConsentState } from '../context';

/** The consent cookies are Notwendig: never cleared, whatever a site's pattern says. */
const OWN_COOKIES = /^(cookieconsent_|pagepulse_)/;

/** Whether `host` is one of `domains` or a subdomain of one. */
export function hostIn(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/**
 * The names among the page's cookies that belong to something a state does not allow: the site's
 * patterns (exact, or a prefix and `*`) of each category 2-4 that is off, and those of each service
 * whose category is off and that the visitor did not allow on its own. Never category 1, never the
 * consent cookies themselves.
 */
export function cookiesToClear(names: readonly string[], config: Config, state: ConsentState): string[] {
  const patterns: string[] = [];
  for (const id of CATEGORY_IDS) if (id > 1 && !state.categories[id]) patterns.push(...config.categories[id].cookies);
  for (const [key, service] of Object.entries(config.services))
    if (!state.categories[service.category] && !state.services.includes(key)) patterns.push(...service.cookies);
  return names.filter(
    (name) =>
      !OWN_COOKIES.test(name) &&
      patterns.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern)),
  );
}

/** The service a blocked element belongs to: its `data-service` (`named`), else the one whose hosts hold its address's. */
export function serviceOf(config: Config, named: string | null, host: string | null): string | null {
  if (named && Object.prototype.hasOwnProperty.call(config.services, named)) return named;
  if (host) for (const [key, service] of Object.entries(config.services)) if (hostIn(host, service.hosts)) return key;
  return null;
}
