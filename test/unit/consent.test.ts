import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config';
import { logEntries, readQueue, writeQueue, deliver, flushQueue, QUEUE_COOKIE, QUEUE_KEY } from '../../src/consent/log';
import type { SafeStorage } from '../../src/consent/storage';
import {
  acceptsByCountry,
  automaticCategories,
  categoryOf,
  consentModeSignals,
  fieldLabel,
  isTrackedField,
} from '../../src/consent/rules';
import { sanitizeFragment, safeHref } from '../../src/consent/sanitize';
import { createConsentStore, readConsent } from '../../src/consent/store';
import { memoryJar } from '../support/cookie-jar';
import type { Requester } from '../../src/platform/request';

const memoryStorage = (): SafeStorage & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
};
const jar = (initial: Record<string, string> = {}) => memoryJar({ ...initial });

describe('description sanitizer', () => {
  const base = 'https://site.example/seite';
  it('keeps the allowlist and drops everything that could run', () => {
    const nodes = sanitizeFragment(
      '<p class="x" onclick="a()">Hallo <strong>Welt</strong><script>bad()</script></p><img src=x onerror=bad()><ul><li>a</li></ul><a href="javascript:bad()">j</a><a href="/info" target="_top" style="color:red">i</a><table><tr><td>Zelle</td></tr></table><iframe srcdoc="x"></iframe>',
      base,
    );
    expect(nodes).toEqual([
      { tag: 'p', className: 'x', children: ['Hallo ', { tag: 'strong', children: ['Welt'] }] },
      { tag: 'ul', children: [{ tag: 'li', children: ['a'] }] },
      { tag: 'a', children: ['j'] },
      { tag: 'a', href: 'https://site.example/info', children: ['i'] },
      'Zelle',
    ]);
  });
  it('accepts only http(s) links', () => {
    expect(safeHref('https://a.example/x', 'https://b/')).toBe('https://a.example/x');
    expect(safeHref('  JaVaScRiPt:alert(1)', 'https://b/')).toBeNull();
    expect(safeHref('data:text/html,x', 'https://b/')).toBeNull();
    expect(safeHref('vbscript:x', 'https://b/')).toBeNull();
    expect(safeHref('//cdn.example/x', 'https://b/')).toBe('https://cdn.example/x');
  });
  it('bounds a hostile, deeply nested fragment', () => {
    const deep = '<div>'.repeat(500) + 'x' + '</div>'.repeat(500);
    expect(JSON.stringify(sanitizeFragment(deep, base)).length).toBeLessThan(2000);
  });
});

describe('consent log queue', () => {
  it('builds the generic and per-category calls of the consent log (docs/protocol.md#consent-log)', () => {
    expect(
      logEntries({ base: '/' }, true, [
        [3, true],
        [4, false],
      ]),
    ).toEqual([
      { url: '/index.php?option=com_gdpr&task=user.processGenericCookieCategories', body: 'gdpr_generic_cookie_consent=1' },
      {
        url: '/index.php?option=com_gdpr&task=user.processCookieCategory',
        body: 'gdpr_cookie_category=3&gdpr_cookie_category_state=0',
      },
      {
        url: '/index.php?option=com_gdpr&task=user.processCookieCategory',
        body: 'gdpr_cookie_category=4&gdpr_cookie_category_state=1',
      },
    ]);
  });
  it('keeps what failed, drops what arrived, and survives Array.prototype.toJSON', async () => {
    const storage = memoryStorage();
    const jar = memoryJar();
    const queue = { storage, cookies: jar };
    const proto = Array.prototype as unknown as { toJSON?: () => string };
    proto.toJSON = () => 'garbled';
    try {
      let up = false;
      const request = (async () =>
        up
          ? { ok: true, status: 200, data: '' }
          : { ok: false, error: { kind: 'abort', status: 0, detail: 'down' } }) as unknown as Requester;
      await deliver(request, queue, logEntries({ base: '/' }, false, [[2, false]]));
      expect(readQueue(storage)).toHaveLength(2);
      expect(storage.data.get(QUEUE_KEY)).toContain('gdpr_generic_cookie_consent=0');
      expect(jar.data).toEqual({ [QUEUE_COOKIE]: '1' }); // the marker: a queue waits
      up = true;
      await flushQueue(request, queue);
      expect(readQueue(storage)).toEqual([]);
      expect(storage.data.has(QUEUE_KEY)).toBe(false);
      expect(jar.data).toEqual({}); // delivered: the marker goes with the queue
    } finally {
      delete proto.toJSON;
    }
  });
  it('tolerates storage that throws or holds garbage', () => {
    const throwing: SafeStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {},
    };
    expect(readQueue(throwing)).toEqual([]);
    expect(() => writeQueue({ storage: throwing, cookies: memoryJar() }, [{ url: '/a', body: 'b' }])).not.toThrow();
    const garbage = memoryStorage();
    garbage.setItem(QUEUE_KEY, 'no tab here\n\t\n/ok\tx=1');
    expect(readQueue(garbage)).toEqual([{ url: '/ok', body: 'x=1' }]);
  });
  it('flushQueue opens storage only under the marker cookie, and drops a marker that has no queue', async () => {
    let lookups = 0;
    const stored = memoryStorage();
    stored.setItem(QUEUE_KEY, '/a\tx=1');
    const counting: SafeStorage = {
      getItem: (key) => (lookups++, stored.getItem(key)),
      setItem: (key, value) => (lookups++, stored.setItem(key, value)),
      removeItem: (key) => (lookups++, stored.removeItem(key)),
    };
    const sent: string[] = [];
    const request = (async (o: { url: string }) => {
      sent.push(o.url);
      return { ok: true, status: 200, data: '' };
    }) as unknown as Requester;
    // no marker (a queue an older version left, or none): nothing is read, nothing sent
    await flushQueue(request, { storage: counting, cookies: memoryJar() });
    expect([lookups, sent]).toEqual([0, []]);
    // the marker: the queue is read, sent, and both go
    const jar = memoryJar({ [QUEUE_COOKIE]: '1' });
    await flushQueue(request, { storage: counting, cookies: jar });
    expect(sent).toEqual(['/a']);
    expect([stored.data.has(QUEUE_KEY), jar.data]).toEqual([false, {}]);
    // a marker over an empty or refused storage is cleared, so the next page does not look again
    const stale = memoryJar({ [QUEUE_COOKIE]: '1' });
    await flushQueue(request, { storage: null, cookies: stale });
    expect(stale.data).toEqual({});
  });
});

describe('consent rules', () => {
  it('names categories by number or name, German or English', () => {
    expect(['1', 'Notwendig', 'necessary'].map(categoryOf)).toEqual([1, 1, 1]);
    expect(['2', 'Präferenzen', 'preferences', '3', 'Statistiken', 'statistics', '4', 'MARKETING'].map(categoryOf)).toEqual([
      2, 2, 2, 3, 3, 3, 4, 4,
    ]);
    expect(['5', '', 'ads', null].map(categoryOf)).toEqual([null, null, null, null]);
  });
  it('asks in the EU, EEA, GB and CH and accepts elsewhere, never marketing under GPC', () => {
    for (const c of ['DE', 'at', 'FR', 'NO', 'IS', 'GB', 'CH']) expect(acceptsByCountry(c), c).toBe(false);
    for (const c of ['US', 'JP', 'BR']) expect(acceptsByCountry(c), c).toBe(true);
    expect(acceptsByCountry(null)).toBe(false);
    const offered = { 1: true, 2: true, 3: true, 4: true } as const;
    expect(automaticCategories(offered, false)).toEqual({ 1: true, 2: true, 3: true, 4: true });
    expect(automaticCategories(offered, true)).toEqual({ 1: true, 2: true, 3: true, 4: false });
  });
  it('maps categories to Consent Mode v2 signals', () => {
    expect(consentModeSignals({ 1: true, 2: true, 3: false, 4: true })).toEqual({
      security_storage: 'granted',
      functionality_storage: 'granted',
      personalization_storage: 'granted',
      analytics_storage: 'denied',
      ad_storage: 'granted',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
    });
  });
  it('labels and selects form fields as com_gdpr does', () => {
    expect(fieldLabel('jform_email')).toBe('email');
    expect(fieldLabel('jform[contact_name]')).toBe('contact name');
    expect(fieldLabel('your-message')).toBe('your message');
    expect(['jform_name', 'email', 'subject', 'jform[message]'].every(isTrackedField)).toBe(true);
    expect(['phone', 'jform_privacy'].some(isTrackedField)).toBe(false);
  });
});

describe('consent store', () => {
  it('starts opt-out (1, 2 on), opt-in (only 1), or as gdprCookieCategoryDisabledN says', () => {
    const config = defaultConfig();
    expect(readConsent(jar(), config)).toEqual({
      status: null,
      chosen: false,
      categories: { 1: true, 2: true, 3: false, 4: false },
      services: [],
      id: null,
    });
    expect(readConsent(jar(), { ...config, complianceType: 'opt-in' }).categories).toEqual({
      1: true,
      2: false,
      3: false,
      4: false,
    });
    const disabled = defaultConfig();
    disabled.categories[2].defaultOn = false;
    expect(readConsent(jar(), disabled).categories[2]).toBe(false);
  });
  it('reads and writes both cookies; malformed ones mean no choice; category 1 stays on', () => {
    const config = defaultConfig();
    expect(readConsent(jar({ cookieconsent_status: 'allow', cookieconsent_categories: '1.3' }), config).categories).toEqual({
      1: true,
      2: false,
      3: true,
      4: false,
    });
    // a com_gdpr "allow" alone is not "all" (docs/protocol.md#consent-at-start-up): the defaults, see test/unit/startup.test.ts
    expect(readConsent(jar({ cookieconsent_status: 'allow' }), config).categories).toEqual({
      1: true,
      2: true,
      3: false,
      4: false,
    });
    expect(readConsent(jar({ cookieconsent_status: 'maybe' }), config).chosen).toBe(false);
    expect(readConsent(jar({ cookieconsent_status: 'deny', cookieconsent_categories: '9;x' }), config).categories).toEqual({
      1: true,
      2: false,
      3: false,
      4: false,
    });
    const cookies = jar();
    const store = createConsentStore(cookies, config);
    expect(store.choose('allow', { 1: false, 3: true })).toEqual([3]);
    const id = cookies.data.pagepulse_consent_id;
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(cookies.data).toEqual({
      cookieconsent_status: 'allow',
      cookieconsent_categories: '1.2.3',
      cookieconsent_revision: '0',
      pagepulse_consent_id: id,
    });
    expect(store.get()).toEqual({
      status: 'allow',
      chosen: true,
      categories: { 1: true, 2: true, 3: true, 4: false },
      services: [],
      id,
    });
    // a later choice keeps the ID; a malformed ID cookie is not taken
    store.choose('deny', { 2: false, 3: false });
    expect(cookies.data.pagepulse_consent_id).toBe(id);
    expect(readConsent(jar({ pagepulse_consent_id: '<script>' }), config).id).toBeNull();
  });
  it('revision: an older choice asks again (outdated), and a page still carrying the older revision does not apply it again', () => {
    const config = defaultConfig();
    const chosen = { cookieconsent_status: 'allow', cookieconsent_categories: '1.2.3.4', cookieconsent_revision: '1' };
    // the page's revision 1: the choice counts
    expect(readConsent(jar(chosen), { ...config, revision: 1 })).toMatchObject({ chosen: true, categories: { 4: true } });
    // revision 2 meets it: a first visit, marked outdated, and the browser remembers revision 2
    const cookies = jar(chosen);
    const store = createConsentStore(cookies, { ...config, revision: 2 });
    expect(store.get()).toMatchObject({ chosen: false, outdated: true, categories: { 3: false, 4: false } });
    expect(cookies.data.pagepulse_revision).toBe('2');
    expect(cookies.data.cookieconsent_categories).toBe('1.2.3.4'); // replaced only by a choice
    // a cached page still at revision 1 does not apply the outdated choice
    const old = createConsentStore(cookies, { ...config, revision: 1 });
    expect(old.get()).toMatchObject({ chosen: false, outdated: true });
    expect(old.revision).toBe(2);
    // a choice there is made under revision 2 and counts on every page
    old.choose('allow', { 3: true, 4: false });
    expect(cookies.data.cookieconsent_revision).toBe('2');
    expect(readConsent(cookies, { ...config, revision: 2 })).toMatchObject({ chosen: true, categories: { 3: true, 4: false } });
    // a first visit is not outdated
    expect(readConsent(jar(), { ...config, revision: 3 }).outdated).toBeUndefined();
  });
});
