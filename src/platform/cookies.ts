/** A cookie jar over `document.cookie`; injected so stores can be tested without a page. */
export interface CookieJar {
  /** The decoded value of a cookie, or null. */
  get(name: string): string | null;
  /** Set a cookie for `days` days on path `/`, SameSite=Lax, Secure on https. */
  set(name: string, value: string, days: number): void;
  /** The names of the cookies the page can see. */
  names(): string[];
  /** Expire a cookie for path `/` on the host and on each parent domain (where a script may have set it). */
  remove(name: string): void;
}

const DAY_MS = 86_400_000;

/** The page's cookie jar. */
export function documentCookieJar(doc: Document): CookieJar {
  const secure = (): string => (doc.location?.protocol === 'https:' ? '; Secure' : '');
  return {
    get(name) {
      for (const part of doc.cookie.split(';')) {
        const eq = part.indexOf('=');
        if (eq < 0) continue;
        if (part.slice(0, eq).trim() !== name) continue;
        try {
          return decodeURIComponent(part.slice(eq + 1).trim());
        } catch {
          return null;
        }
      }
      return null;
    },
    set(name, value, days) {
      const expires = new Date(Date.now() + days * DAY_MS).toUTCString();
      doc.cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax${secure()}`;
    },
    names: () => doc.cookie.split(';').map((part) => part.split('=')[0]!.trim()),
    remove(name) {
      for (const domain of ['', ...parentDomains(doc.location?.hostname ?? '')])
        doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/${domain && `; domain=${domain}`}`;
    },
  };
}

/**
 * The domains a cookie of `host` may have been set for: the host itself and each parent with at
 * least two labels (`www.example.co.uk`: `www.example.co.uk`, `example.co.uk`, `co.uk`; the browser
 * ignores the public suffix). None for an IP address or a single-label host.
 */
export function parentDomains(host: string): string[] {
  if (!host.includes('.') || /^[\d.]+$|:/.test(host)) return [];
  const labels = host.split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}
