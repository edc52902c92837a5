import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config';

type Win = Window & Record<string, unknown>;

function env(globals: Record<string, unknown> = {}, attrs: Record<string, string> = {}, href = 'https://example.org/seite') {
  const script = document.createElement('script');
  for (const [key, value] of Object.entries(attrs)) script.setAttribute(key, value);
  const win = Object.defineProperties({ location: { href } }, Object.getOwnPropertyDescriptors(globals)) as unknown as Win;
  const warnings: string[] = [];
  return { config: () => readConfig({ win, doc: document, script, warn: (m) => warnings.push(m) }), warnings };
}

afterEach(() => {
  document.head.replaceChildren();
  document.documentElement.removeAttribute('lang');
});

describe('config sources and precedence', () => {
  it('uses the defaults', () => {
    const { config, warnings } = env();
    const c = config();
    expect(c.base).toBe('/');
    expect(c.lang).toBe('de');
    expect(c.keepalive).toBe(45_000);
    expect(c.respectConsent).toBe(true);
    expect(c.categories[3].defaultOn).toBe(false);
    expect(c.categories[1].locked).toBe(true);
    expect(c.selectors).toBe('original');
    expect(warnings).toEqual([]);
  });

  it('takes the selector mode from data-selectors over PagePulseConfig.selectors, and reports a bad one', () => {
    expect(env({ PagePulseConfig: { selectors: 'stable' } }).config().selectors).toBe('stable');
    expect(env({ PagePulseConfig: { selectors: 'stable' } }, { 'data-selectors': 'original' }).config().selectors).toBe(
      'original',
    );
    expect(env({}, { 'data-selectors': 'stable' }).config().selectors).toBe('stable');
    for (const bad of ['Stabil', 'STABLE ', '', 'css']) {
      const { config, warnings } = env({ PagePulseConfig: { selectors: 'stable' } }, { 'data-selectors': bad });
      // the lower source's value stays, and the bad one is named once
      expect(config().selectors, bad).toBe('stable');
      expect(warnings, bad).toEqual([expect.stringContaining('"data-selectors"')]);
    }
    const { config, warnings } = env({ PagePulseConfig: { selectors: 1 } });
    expect(config().selectors).toBe('original');
    expect(warnings).toEqual([expect.stringContaining('"PagePulseConfig.selectors"')]);
  });

  it('takes base from data-base over PagePulseConfig over jrealtimeBaseURI over paths.root over gdpr_ajax_livesite', () => {
    expect(env({ gdpr_ajax_livesite: 'https://a/' }).config().base).toBe('https://a/');
    const options = document.createElement('script');
    options.type = 'application/json';
    options.className = 'joomla-script-options new';
    options.textContent = JSON.stringify({
      'system.paths': { root: '/sub' },
      'csrf.token': 'a'.repeat(32),
      'system.keepalive': { interval: 840000, uri: '/index.php?option=com_ajax&format=json' },
    });
    document.head.append(options);
    const withRoot = env({ gdpr_ajax_livesite: 'https://a/' }).config();
    expect(withRoot.base).toBe('/sub/');
    expect(withRoot.csrfToken).toBe('a'.repeat(32));
    expect(withRoot.keepalive).toBe(840000);
    expect(withRoot.keepaliveUrl).toBe('/index.php?option=com_ajax&format=json');
    expect(env({ gdpr_ajax_livesite: 'https://a/', jrealtimeBaseURI: 'https://b/' }).config().base).toBe('https://b/');
    expect(env({ jrealtimeBaseURI: 'https://b/', PagePulseConfig: { base: 'https://c' } }).config().base).toBe('https://c/');
    expect(env({ PagePulseConfig: { base: 'https://c/' } }, { 'data-base': '/d' }).config().base).toBe('/d/');
  });

  it('reads the data attributes', () => {
    const c = env(
      {},
      {
        'data-lang': 'en',
        'data-debug': '1',
        'data-tracker': 'off',
        'data-consent': 'on',
        'data-respect-consent': 'off',
        'data-keepalive': 'off',
        'data-state-input': '#state',
        'data-privacy-url': '/datenschutz',
        'data-country': 'us',
        'data-compliance': 'opt-in',
      },
    ).config();
    expect(c).toMatchObject({
      lang: 'en',
      debug: true,
      tracker: false,
      consent: true,
      respectConsent: false,
      keepalive: null,
      stateInput: '#state',
      privacyUrl: '/datenschutz',
      country: 'US',
      complianceType: 'opt-in',
    });
  });

  it('accepts service address patterns with paths and wildcards, and the new service fields; rejects the rest', () => {
    const { config, warnings } = env({
      PagePulseConfig: {
        categories: { 4: { domains: ['maps.google.*', 'google.*/maps', 'ads.example.com'] } },
        services: {
          osm: {
            category: 4,
            name: 'OpenStreetMap',
            provider: 'OSMF',
            privacyUrl: 'https://osmfoundation.org/privacy',
            purpose: 'map',
            hosts: ['openstreetmap.org/export'],
            snippets: ['L.tileLayer('],
          },
          bad1: { category: 4, name: 'X', privacyUrl: 'javascript:alert(1)' },
          bad2: { category: 4, name: 'X', hosts: ['https://x.example/'] },
          bad3: { category: 4, name: 'X', snippets: ['a'] },
        },
      },
    });
    const c = config();
    expect(c.categories[4].domains).toEqual(['maps.google.*', 'google.*/maps', 'ads.example.com']);
    expect(c.services.osm).toMatchObject({ provider: 'OSMF', hosts: ['openstreetmap.org/export'], snippets: ['L.tileLayer('] });
    expect(['bad1', 'bad2', 'bad3'].filter((key) => key in c.services)).toEqual([]);
    expect(warnings).toHaveLength(3);
  });

  it('takes the language from <html lang> unless data-lang says otherwise', () => {
    document.documentElement.setAttribute('lang', 'en-GB');
    expect(env().config().lang).toBe('en');
    expect(env({}, { 'data-lang': 'de' }).config().lang).toBe('de');
  });

  it('warns once per bad value, names the key and keeps the default', () => {
    const { config, warnings } = env(
      { PagePulseConfig: { keepalive: 'often', nonsense: 1, base: 'javascript:alert(1)' } },
      { 'data-state-input': '##', 'data-lang': 'fr' },
    );
    const c = config();
    expect(c.keepalive).toBe(45_000);
    expect(c.base).toBe('/');
    expect(c.stateInput).toBeNull();
    expect(c.lang).toBe('de');
    expect(warnings).toHaveLength(5);
    for (const key of [
      'PagePulseConfig.keepalive',
      'PagePulseConfig.nonsense',
      'PagePulseConfig.base',
      'data-state-input',
      'data-lang',
    ])
      expect(
        warnings.some((w) => w.includes(key)),
        key,
      ).toBe(true);
  });

  it('honours com_gdpr globals', () => {
    const c = env({
      gdprConfigurationOptions: {
        complianceType: 'opt-in',
        revokable: 0,
        cookieCategory2Name: 'Komfort',
        cookieCategory4Enable: 0,
        alwaysReloadAfterCategoriesChange: 1,
      },
      gdprCookieCategoryDisabled2: 1,
      gdpr_enable_log_cookie_consent: 0,
    }).config();
    expect(c.complianceType).toBe('opt-in');
    expect(c.revokable).toBe(false);
    expect(c.categories[2]).toMatchObject({ name: 'Komfort', defaultOn: false });
    expect(c.categories[4].offered).toBe(false);
    expect(c.logConsent).toBe(false);
  });

  it('reads com_gdpr texts, links, openAlwaysDeclined and the session-disabled categories', () => {
    const { config, warnings } = env({
      gdprConfigurationOptions: {
        headerText: ' Cookies auf <b>Lichtwerk</b> ',
        messageText: 'Wir nutzen Cookies.',
        denyText: 'Nein danke',
        allowText: 'Cookies erlauben',
        cookieSettingsLabel: 'Cookie-Einstellungen:',
        cookieSettingsDesc: 'Wählen Sie.',
        privacyPolicyLinkText: 'Datenschutz',
        privacyPolicyLink: '/datenschutz',
        cookiePolicyLinkText: '',
        cookiePolicyLink: 'javascript:void(0)',
        openAlwaysDeclined: 1,
      },
      gdprCookieCategoryDisabled3: 1,
      gdprCookieCategoryDisabled4: '1',
    });
    const c = config();
    expect(c).toMatchObject({
      headerText: 'Cookies auf <b>Lichtwerk</b>',
      messageText: 'Wir nutzen Cookies.',
      denyText: 'Nein danke',
      allowText: 'Cookies erlauben',
      cookieSettingsLabel: 'Cookie-Einstellungen:',
      cookieSettingsDesc: 'Wählen Sie.',
      privacyPolicyLinkText: 'Datenschutz',
      privacyUrl: '/datenschutz',
      cookiePolicyLinkText: '',
      openAlwaysDeclined: true,
    });
    expect(c.cookiePolicyLink).toBeUndefined();
    expect([1, 2, 3, 4].map((id) => c.categories[id as 1].disabled ?? false)).toEqual([false, false, true, true]);
    // com_gdpr's default "no page" link is skipped silently; a data-privacy-url still wins
    expect(warnings).toEqual([]);
    expect(env({ gdprConfigurationOptions: { privacyPolicyLink: '/a' } }, { 'data-privacy-url': '/b' }).config().privacyUrl).toBe(
      '/b',
    );
    const bad = env({ gdprConfigurationOptions: { headerText: 5, openAlwaysDeclined: 'sometimes' } });
    const badConfig = bad.config();
    expect([badConfig.headerText, badConfig.openAlwaysDeclined]).toEqual([undefined, undefined]);
    expect(bad.warnings).toHaveLength(2);
    expect(env().config().openAlwaysDeclined).toBeUndefined();
  });

  it('survives com_gdpr options whose getters throw: that option is reported, the others still count', () => {
    const options = { denyText: 'Nein' };
    Object.defineProperty(options, 'headerText', {
      get: () => {
        throw new Error('kaputt');
      },
      enumerable: true,
    });
    const { config, warnings } = env({ gdprConfigurationOptions: options });
    expect(config()).toMatchObject({ denyText: 'Nein' });
    expect(warnings.some((w) => w.includes('gdprConfigurationOptions.headerText') && w.includes('kaputt'))).toBe(true);
  });

  it('survives globals whose getters throw', () => {
    const globals = {};
    Object.defineProperty(globals, 'PagePulseConfig', {
      get: () => {
        throw new Error('boom');
      },
      enumerable: true,
    });
    const { config, warnings } = env(globals);
    expect(config().base).toBe('/');
    expect(warnings.some((w) => w.includes('boom'))).toBe(true);
  });

  it('turns debug on from ?pagepulse-debug=1', () => {
    expect(env({}, {}, 'https://x/?pagepulse-debug=1').config().debug).toBe(true);
    expect(env({}, {}, 'https://x/?pagepulse-debug=0').config().debug).toBe(false);
  });

  it('never lets category 1 be unlocked', () => {
    const c = env({
      PagePulseConfig: {
        categories: { 1: { locked: false, defaultOn: false }, 3: { defaultOn: true, domains: ['stats.example.com'] } },
      },
    }).config();
    expect(c.categories[1]).toMatchObject({ locked: true, defaultOn: true });
    expect(c.categories[3]).toMatchObject({ defaultOn: true, domains: ['stats.example.com'] });
  });
});
