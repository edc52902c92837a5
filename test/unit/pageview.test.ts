import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config';
import { createConsentStore } from '../../src/consent/store';
import { memoryJar } from '../support/cookie-jar';
import { moduleAvailable } from '../../src/tracker/badges';
import { askWindowsVersion, isWindows11 } from '../../src/tracker/client-hints';
import { foreignReferrer, heartbeatBody, type PageFacts } from '../../src/tracker/wire';

const page = (overrides: Partial<PageFacts> = {}): PageFacts => ({
  href: 'https://site.example/a b?x=(1)',
  moduleAvailable: 1,
  outerWidth: 1280,
  outerHeight: 800,
  windowsVersion: null,
  externalReferrer: null,
  ...overrides,
});

describe('heartbeat body (protocol section 3)', () => {
  it('first call: initialize=true and the window size; later calls: no initialize field at all', () => {
    expect(heartbeatBody(true, page())).toBe(
      'task=stream.display&nowpage=https%3A%2F%2Fsite.example%2Fa+b%3Fx%3D(1)&initialize=true&module_available=1&device_width=1280&device_height=800',
    );
    expect(heartbeatBody(false, page({ moduleAvailable: 0 }))).toBe(
      'task=stream.display&nowpage=https%3A%2F%2Fsite.example%2Fa+b%3Fx%3D(1)&module_available=0',
    );
  });

  it('appends windowsver last once known', () => {
    expect(heartbeatBody(false, page({ windowsVersion: 'Windows 11' }))).toMatch(/&module_available=1&windowsver=Windows\+11$/);
    // a repeated first call (the first never reached the server) keeps the original data object's order
    expect(heartbeatBody(true, page({ windowsVersion: 'Windows 11' }))).toMatch(/&device_height=800&windowsver=Windows\+11$/);
  });
});

describe('referrer (our addition to protocol section 3)', () => {
  const from = "https://www.google.com/search?q=a b&x=(1)!'*~";
  it("ends the page view's call, encoded as $.param encodes, after windowsver too; later calls never carry it", () => {
    const original = heartbeatBody(true, page());
    expect(heartbeatBody(true, page({ externalReferrer: from }))).toBe(
      `${original}&referrer=https%3A%2F%2Fwww.google.com%2Fsearch%3Fq%3Da+b%26x%3D(1)!'*~`,
    );
    expect(heartbeatBody(true, page({ externalReferrer: from, windowsVersion: 'Windows 11' }))).toMatch(
      /&device_height=800&windowsver=Windows\+11&referrer=https%3A%2F%2Fwww\.google\.com%2F/,
    );
    expect(heartbeatBody(false, page({ externalReferrer: from }))).not.toContain('referrer');
    expect(heartbeatBody(false, page({ externalReferrer: from, windowsVersion: 'Windows 11' }))).toMatch(
      /&windowsver=Windows\+11$/,
    );
  });

  it('is document.referrer only when its host differs from the page host', () => {
    expect(foreignReferrer('https://www.google.com/', 'site.example')).toBe('https://www.google.com/');
    expect(foreignReferrer('http://site.example:8080/a?b', 'site.example')).toBeNull();
    expect(foreignReferrer('https://site.example/a', 'site.example')).toBeNull();
    // another name of the site is another host: the collector groups, the bundle only compares
    expect(foreignReferrer('https://www.site.example/', 'site.example')).toBe('https://www.site.example/');
    expect(foreignReferrer('', 'site.example')).toBeNull();
    expect(foreignReferrer('not a url', 'site.example')).toBeNull();
    expect(foreignReferrer('/relative', 'site.example')).toBeNull();
  });
});

describe('module_available', () => {
  it('is 1 for one module, 1 for a repeated id (jQuery id fast path), 0 without', () => {
    document.body.innerHTML = '<div id="jes_mod"></div>';
    expect(moduleAvailable(document)).toBe(1);
    document.body.innerHTML = '<div id="jes_mod"></div><aside><div id="jes_mod"></div></aside>';
    expect(moduleAvailable(document)).toBe(1);
    document.body.innerHTML = '<div class="jes_mod" name="jes_mod"></div>';
    expect(moduleAvailable(document)).toBe(0);
  });
});

describe('Windows 11 client hints', () => {
  it('needs platform Windows and major platformVersion 13 or more', () => {
    expect(isWindows11('Windows', '13.0.0')).toBe(true);
    expect(isWindows11('Windows', '15.0.0')).toBe(true);
    expect(isWindows11('Windows', '10.0.0')).toBe(false);
    expect(isWindows11('Windows', '0.3.0')).toBe(false);
    expect(isWindows11('macOS', '15.0.0')).toBe(false);
    expect(isWindows11('Windows', undefined)).toBe(false);
    expect(isWindows11('Windows', 'x')).toBe(false);
  });

  it('asks getHighEntropyValues for platformVersion and never rejects', async () => {
    const asked: string[][] = [];
    const nav = (userAgentData: unknown) => ({ userAgentData }) as unknown as Navigator;
    const hints = (platformVersion: string) => ({
      platform: 'Windows',
      getHighEntropyValues: (keys: string[]) => {
        asked.push(keys);
        return Promise.resolve({ platform: 'Windows', platformVersion });
      },
    });
    expect(await askWindowsVersion(nav(hints('15.0.0')))).toBe('Windows 11');
    expect(asked).toEqual([['platformVersion']]);
    expect(await askWindowsVersion(nav(hints('10.0.0')))).toBeNull();
    expect(await askWindowsVersion(nav(undefined))).toBeNull();
    // another platform is known from the low-entropy hint: the high-entropy one is not asked
    expect(await askWindowsVersion(nav({ ...hints('15.0.0'), platform: 'Android' }))).toBeNull();
    expect(asked).toHaveLength(2);
    expect(await askWindowsVersion(nav({ getHighEntropyValues: () => Promise.reject(new Error('denied')) }))).toBeNull();
    expect(
      await askWindowsVersion(
        nav({
          getHighEntropyValues: () => {
            throw new Error('hostile');
          },
        }),
      ),
    ).toBeNull();
  });
});

describe('consent choice that will reload', () => {
  const jar = () => memoryJar();

  it('is announced in the state the store listeners see, only when a choice takes something back', () => {
    const store = createConsentStore(jar(), defaultConfig());
    const seen: Array<boolean | undefined> = [];
    store.subscribe(() => seen.push(store.get().reloading));
    // only adding (3 on): released in place, the tracker may start on this page
    store.choose('allow', { 3: true }, true);
    expect(seen).toEqual([undefined]);
    // taking 2 back: the page reloads
    store.choose('allow', { 2: false }, true);
    expect(seen).toEqual([undefined, true]);
    // no change: no reload, so it is not reloading
    store.choose('allow', { 3: true }, true);
    expect(seen).toEqual([undefined, true, undefined]);
    // a narrowing change without reloadAfterChange
    store.choose('allow', { 3: false });
    expect(seen).toEqual([undefined, true, undefined, undefined]);
    // a service taken back while its category is off is taken back too; while it is on, nothing changes
    store.allowService('youtube');
    store.choose('allow', {}, true, []);
    expect(seen.at(-1)).toBe(true);
    store.choose('allow', { 4: true }, true, ['youtube']);
    store.choose('allow', {}, true, []);
    expect(seen.at(-1)).toBeUndefined();
  });
});
