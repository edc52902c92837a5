/** A cookie jar over `document.cookie`; injected so stores can be tested without a page. */
export interface CookieJar {
  /** The decoded value of a cookie, or null. */
  get(name: string): string | null;
  /** Set a cookie for `days` days on path `/`, SameSite=Lax, Secure on https. */
  set(name: string, value: string, days: number): void;
  /** The names of the cookies the page can see. */
  names(): string[];
  /**
   * Expire a cookie for path `/`, host-only and on the host and each parent domain (where a script
   * may have set it); nothing when the page does not see the cookie (docs/protocol.md#clearing).
   */
  remove(name: string): void;
}

const DAY_MS = 86_400_000;

/** The page's cookie jar. */
export function documentCookieJar(doc: Document): CookieJar {
  const secure = (): string => (doc.location?.protocol === 'https:' ? '; Secure' : '');
  // `document.cookie` read once per task: start-up asks for five cookies, and each read of the
  // getter costs; a write of ours forgets it, and a microtask later another script's may have come
  let text: string | null = null;
  const read = (): string => {
    if (text === null) {
      text = doc.cookie;
      queueMicrotask(() => (text = null));
    }
    return text;
  };
  const write = (cookie: string): void => {
    text = null;
    doc.cookie = cookie;
  };
  const names = (): string[] =>
    read()
      .split('; ')
      .map((cookie) => cookie.split('=')[0]!);
  return {
    get(name) {
      for (const part of read().split(';')) {
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
      write(`${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax${secure()}`);
    },
    names,
    remove(name) {
      // a cookie the page does not see is not there for a script to remove (another path, HttpOnly)
      if (!names().includes(name)) return;
      // expired (max-age=-1: some cookie jars keep a cookie whose expiry is "now"), host-only, then
      // for each domain from the host up to the last label, not the last label alone
      // (`www.example.com`, `example.com`, not `com`), and none on an IP host (127.0.0.1, [::1]): a
      // browser rejects a Domain it cannot set, and Firefox says so on the console each time
      write(`${name}=;max-age=-1;path=/`);
      const host = doc.location.hostname;
      if (!/^[\d.]+$|:/.test(host))
        for (let domain = host; domain.includes('.'); domain = domain.slice(domain.indexOf('.') + 1))
          write(`${name}=;max-age=-1;path=/;domain=${domain}`);
    },
  };
}
