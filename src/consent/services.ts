import { CATEGORY_IDS, type CategoryId, type Config } from '../config';
import type { ConsentState } from '../context';

/** The consent cookies are Notwendig: never cleared, whatever a site's pattern says. */
const OWN_COOKIES = /^(cookieconsent_|pagepulse_)/;

/** Compiled address patterns (a page asks for the same few dozen over and over). */
const compiled = new Map<string, RegExp>();

/**
 * Whether an address pattern covers `host` (lower case, as URL gives it) + `path` (docs/protocol.md#services): `host` is the host
 * or a subdomain of it; `host/path` also needs the path to start so; `*` stands for one whole label,
 * or two where the last is a country code (`maps.google.*` covers maps.google.de and maps.google.co.uk).
 */
export function covers(pattern: string, host: string, path: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    const slash = pattern.indexOf('/');
    const source = pattern.replace(/[^\w*/-]/g, '\\$&').replace(/\*/g, '[^./]+(\\.[a-z]{2})?');
    compiled.set(pattern, (regex = new RegExp(`^([^/]*\\.)?${source}${slash < 0 ? '/' : ''}`)));
  }
  return regex.test(`${host}${path || '/'}`);
}

/** What claims an element: its category, and the service it belongs to, if any. */
export interface Claim {
  category: CategoryId;
  service: string | null;
}

/**
 * The service and category an address belongs to (`named` = the element's `data-service`): the
 * named service, else the service with the longest pattern covering the address, else the first
 * category whose `domains` cover it.
 */
export function claimOf(config: Config, named: string | null, host: string, path: string): Claim | null {
  let best: string | null = named && Object.prototype.hasOwnProperty.call(config.services, named) ? named : null;
  let length = 0;
  if (!best)
    for (const [key, service] of Object.entries(config.services))
      for (const pattern of service.hosts)
        if (pattern.length > length && covers(pattern, host, path)) [best, length] = [key, pattern.length];
  if (best) return { category: config.services[best]!.category, service: best };
  for (const id of CATEGORY_IDS)
    if (config.categories[id].domains.some((pattern) => covers(pattern, host, path))) return { category: id, service: null };
  return null;
}

/** The service whose install snippet an inline script's text holds (`_paq.push`, `fbq('init'`), if any. */
export function snippetOf(config: Config, text: string): string | null {
  for (const [key, service] of Object.entries(config.services))
    if (service.snippets?.some((snippet) => text.includes(snippet))) return key;
  return null;
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
