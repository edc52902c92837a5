/**
 * @vitest-environment-options {"url": "https://www.example.com/seite"}
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config';
import { claimOf, cookiesToClear, covers } from '../../src/consent/services';
import { documentCookieJar } from '../../src/platform/cookies';

// The DOM's own cookie jar (jsdom's and happy-dom's, which follow RFC 6265 for Domain) is the
// judge of whether a cookie is gone: the expected names are hand-written from docs/protocol.md.
const names = () => documentCookieJar(document).names().filter(Boolean).sort();
afterEach(() => {
  for (const name of names()) {
    document.cookie = `${name}=; max-age=0; path=/`;
    document.cookie = `${name}=; max-age=0; path=/; domain=example.com`;
  }
});

describe('the cookie jar', () => {
  it('reads document.cookie once per task, and again after a write of its own or a microtask later', async () => {
    let reads = 0;
    const stored: string[] = ['a=1', 'b=x%20y'];
    const doc = {
      location: { protocol: 'https:', hostname: 'www.example.com' },
      get cookie() {
        reads++;
        return stored.join('; ');
      },
      set cookie(value: string) {
        stored.push(value.split(';')[0]!);
      },
    } as unknown as Document;
    const jar = documentCookieJar(doc);
    expect([jar.get('a'), jar.get('b'), jar.get('c'), jar.names()]).toEqual(['1', 'x y', null, ['a', 'b']]);
    expect(reads).toBe(1);
    jar.set('c', '3', 1);
    expect(jar.get('c')).toBe('3'); // its own write is seen at once
    expect(reads).toBe(2);
    stored.push('d=4'); // another script's write, in a later task
    await Promise.resolve();
    expect(jar.get('d')).toBe('4');
    expect(reads).toBe(3);
  });
});

describe('cookie clearing (docs/protocol.md#clearing)', () => {
  it('expires a cookie set on the host and one set for the parent domain, as Google Analytics sets _ga', () => {
    document.cookie = '_ga=GA1.1.1; path=/; domain=example.com';
    document.cookie = '_gid=GA1.1.2; path=/';
    document.cookie = 'keep=1; path=/';
    expect(names()).toEqual(['_ga', '_gid', 'keep']);
    const jar = documentCookieJar(document);
    jar.remove('_ga');
    jar.remove('_gid');
    expect(names()).toEqual(['keep']);
  });

  /** A page of `hostname` whose cookie writes are recorded; `present` are the cookies it sees. */
  function recording(hostname: string, present: string[]) {
    const writes: string[] = [];
    const doc = {
      location: { protocol: 'http:', hostname },
      get cookie() {
        return present.map((name) => `${name}=1`).join('; ');
      },
      set cookie(value: string) {
        writes.push(value);
      },
    } as unknown as Document;
    return { jar: documentCookieJar(doc), writes };
  }

  it('tries the host and its parent domains, never the last label alone (a top-level domain)', () => {
    const { jar, writes } = recording('www.shop.example.com', ['_ga']);
    jar.remove('_ga');
    expect(writes).toEqual([
      '_ga=;max-age=-1;path=/',
      '_ga=;max-age=-1;path=/;domain=www.shop.example.com',
      '_ga=;max-age=-1;path=/;domain=shop.example.com',
      '_ga=;max-age=-1;path=/;domain=example.com',
    ]);
  });

  it('makes no Domain attempt on an IP host or a one-label host, only the host-only removal', () => {
    for (const host of ['127.0.0.1', '192.168.178.20', '[::1]', '[2001:db8::1]', 'localhost']) {
      const { jar, writes } = recording(host, ['pagepulse_services']);
      jar.remove('pagepulse_services');
      expect(writes, host).toEqual(['pagepulse_services=;max-age=-1;path=/']);
    }
  });

  it('makes no attempt at all for a cookie the page does not see', () => {
    const { jar, writes } = recording('www.example.com', ['_gid', 'pagepulse_servicesx', 'x_ga']);
    jar.remove('_ga');
    jar.remove('pagepulse_services');
    expect(writes).toEqual([]);
  });

  it('chooses by the patterns of what is off: exact names and prefixes with *, never category 1 or the consent cookies', () => {
    const config = defaultConfig();
    config.categories[2].cookies = ['pref_*'];
    config.categories[1].cookies = ['session_id'];
    config.categories[3].cookies = ['cookieconsent_*', 'hj*'];
    const all = [
      '_ga',
      '_ga_ABC123',
      '_gid',
      '_gat_UA1',
      '_fbp',
      '_pk_id.1.abcd',
      'mtm_consent',
      'pref_theme',
      'hjSession',
      'session_id',
      'cookieconsent_status',
      'pagepulse_services',
      'keep',
      '_gax',
    ];
    const state = (on: number[], services: string[] = []) => ({
      status: 'allow' as const,
      chosen: true,
      services,
      id: null,
      categories: { 1: true, 2: on.includes(2), 3: on.includes(3), 4: on.includes(4) },
    });
    expect(cookiesToClear(all, config, state([2, 4])).sort()).toEqual(
      ['_ga', '_ga_ABC123', '_gid', '_gat_UA1', '_pk_id.1.abcd', 'mtm_consent', 'hjSession'].sort(),
    );
    expect(cookiesToClear(all, config, state([2, 3]))).toEqual(['_fbp']);
    // Google Analytics allowed on its own: its cookies stay while Matomo's go
    expect(cookiesToClear(all, config, state([2], ['google-analytics', 'meta-pixel'])).sort()).toEqual(
      ['_pk_id.1.abcd', 'mtm_consent', 'hjSession'].sort(),
    );
    expect(cookiesToClear(all, config, state([]))).toContain('pref_theme');
  });

  it('finds the service of an address by data-service, else by the longest pattern covering host and path, else a category domain', () => {
    const config = defaultConfig();
    const service = (named: string | null, address: string) => {
      const url = new URL(address);
      return claimOf(config, named, url.hostname, url.pathname)?.service ?? null;
    };
    expect(service('vimeo', 'https://www.youtube.com/embed/x')).toBe('vimeo');
    expect(service('unknown', 'https://www.youtube-nocookie.com/embed/x')).toBe('youtube');
    expect(service(null, 'https://player.vimeo.com/video/1')).toBe('vimeo');
    expect(service(null, 'https://connect.facebook.net/en_US/fbevents.js')).toBe('meta-pixel');
    expect(service(null, 'https://notyoutube.com/')).toBeNull();
    expect(service('toString', 'https://example.org/')).toBeNull();
    // Google Maps on www.google.* with a /maps path and on maps.google.* of any country; Google search is not Maps
    expect(service(null, 'https://www.google.com/maps/embed?pb=!1m18')).toBe('googlemaps');
    expect(service(null, 'https://www.google.de/maps/embed?pb=x')).toBe('googlemaps');
    expect(service(null, 'https://maps.google.de/maps?q=Berlin&output=embed')).toBe('googlemaps');
    expect(service(null, 'https://maps.google.co.uk/maps?output=embed')).toBe('googlemaps');
    expect(service(null, 'https://www.google.com/search?q=x')).toBeNull();
    // one host, two services by path: gtag.js is Google Analytics, gtm.js Tag Manager
    expect(service(null, 'https://www.googletagmanager.com/gtag/js?id=G-1')).toBe('google-analytics');
    expect(service(null, 'https://www.googletagmanager.com/gtm.js?id=GTM-1')).toBe('google-tag-manager');
    // a category's domains: no service, the category
    expect(claimOf(config, null, 'static.hotjar.com', '/c/hotjar.js')).toEqual({ category: 3, service: null });
    expect(covers('example.*', 'example.co.uk', '/')).toBe(true);
    expect(covers('example.*', 'example.evil.org', '/')).toBe(false);
  });
});
