import { describe, expect, it } from 'vitest';
import { memoryJar } from '../support/cookie-jar';
import { defaultConfig, type Config } from '../../src/config';
import { parseChoices, startupConsent, type StartupInput } from '../../src/consent/startup';
import { bannerTexts } from '../../src/consent/texts';
import { createConsentStore } from '../../src/consent/store';
import { messages } from '../../src/i18n';

const input = (status: string | null, categories: string | null = null, choices: string | null = null): StartupInput => ({
  status,
  categories,
  choices: () => choices,
});
/** A com_gdpr page whose plugin printed gdprCookieCategoryDisabledN = 1 for these categories. */
function gdprPage(...disabled: Array<1 | 2 | 3 | 4>): Config {
  const config = defaultConfig();
  for (const id of disabled) Object.assign(config.categories[id], { disabled: true, defaultOn: false });
  return config;
}
const on = (config: Config, i: StartupInput) => startupConsent(i, config).categories;

describe('start-up consent rule', () => {
  it('our own categories cookie wins over everything com_gdpr says', () => {
    expect(on(gdprPage(3, 4), input('allow', '1.3.4', '{"3":1}'))).toEqual({ 1: true, 2: false, 3: true, 4: true });
    expect(on(gdprPage(), input('deny', ''))).toEqual({ 1: true, 2: false, 3: false, 4: false });
  });

  it('com_gdpr allow: never a category the server disabled, even if its toggle says on', () => {
    expect(on(gdprPage(3, 4), input('allow'))).toEqual({ 1: true, 2: true, 3: false, 4: false });
    expect(on(gdprPage(3, 4), input('allow', null, '{"3":0,"4":0}'))).toEqual({ 1: true, 2: true, 3: false, 4: false });
    expect(on(gdprPage(2), input('allow', null, '{"2":0}'))[2]).toBe(false);
  });

  it('com_gdpr allow: the visitor toggles where the server printed nothing, else the defaults', () => {
    expect(on(defaultConfig(), input('allow'))).toEqual({ 1: true, 2: true, 3: false, 4: false });
    expect(on(defaultConfig(), input('allow', null, '{"2":1,"3":0,"4":"1"}'))).toEqual({ 1: true, 2: false, 3: true, 4: false });
    expect(on(gdprPage(4), input('allow', null, '{"3":0}'))).toEqual({ 1: true, 2: true, 3: true, 4: false });
  });

  it('com_gdpr deny = only Notwendig; dismiss = the defaults, toggles ignored; no status = no choice', () => {
    expect(on(defaultConfig(), input('deny', null, '{"2":0,"3":0}'))).toEqual({ 1: true, 2: false, 3: false, 4: false });
    expect(on(defaultConfig(), input('dismiss', null, '{"3":0}'))).toEqual({ 1: true, 2: true, 3: false, 4: false });
    expect(on(gdprPage(2), input('dismiss'))[2]).toBe(false);
    expect(startupConsent(input('yes'), defaultConfig())).toEqual({
      status: null,
      chosen: false,
      categories: { 1: true, 2: true, 3: false, 4: false },
    });
    expect(startupConsent(input('allow'), defaultConfig()).chosen).toBe(true);
  });

  it('reads localStorage only for a com_gdpr allow', () => {
    let reads = 0;
    const counted = (status: string, categories: string | null): StartupInput => ({
      status,
      categories,
      choices: () => (reads++, '{"3":0}'),
    });
    startupConsent(counted('allow', '1.2'), defaultConfig());
    startupConsent(counted('deny', null), defaultConfig());
    expect(reads).toBe(0);
    startupConsent(counted('allow', null), defaultConfig());
    expect(reads).toBe(1);
  });

  it('parses gdprCategoriesChoices robustly: garbage and hostile values mean no toggles', () => {
    expect(parseChoices('{"1":0,"2":1,"3":"0","4":0}')).toEqual({ 1: true, 2: false, 3: true, 4: true });
    for (const raw of [
      null,
      '',
      'null',
      '[0,0,0]',
      '{"3":true}',
      '{"3":2}',
      '{"3":{"valueOf":0}}',
      '{"3":[0]}',
      '{"3":" 0"}',
      '{',
      'undefined',
      '"{}"',
      `{"3":0,"x":"${'a'.repeat(500)}"}`,
      '{"__proto__":{"3":0}}',
    ])
      expect(parseChoices(raw), String(raw).slice(0, 40)).toEqual({});
    expect(on(defaultConfig(), input('allow', null, '{"__proto__":{"3":0},"4":"evil"}'))).toEqual({
      1: true,
      2: true,
      3: false,
      4: false,
    });
  });

  it('a saved choice of such a visitor writes what was derived, not "all"', () => {
    const data: Record<string, string> = { cookieconsent_status: 'allow' };
    const jar = memoryJar(data);
    const store = createConsentStore(jar, gdprPage(3, 4), undefined, () => '{"2":0}');
    expect(store.get().categories).toEqual({ 1: true, 2: true, 3: false, 4: false });
    expect(store.choose('allow', { 2: false })).toEqual([2]);
    expect(data.cookieconsent_categories).toBe('1');
  });
});

describe('banner texts', () => {
  const t = messages('de');
  it('falls back to the built-in texts', () => {
    const texts = bannerTexts(defaultConfig(), t, 'https://x.example/');
    expect(texts).toMatchObject({
      title: [t.consentTitle],
      message: [t.consentText],
      settingsDesc: [],
      decline: 'Ablehnen',
      acceptAll: 'Alle akzeptieren',
      legend: t.consentCategories,
    });
  });
  it("uses the site's texts: markup only through the allowlist, labels as plain text", () => {
    const config: Config = {
      ...defaultConfig(),
      headerText: 'Cookies &amp; <em>Sie</em>',
      messageText:
        'Hallo <img src=x onerror="window.hit=1"><a href="javascript:alert(1)">böse</a> <a href="/info">Info</a><script>window.hit=2</script>',
      denyText: '<b>Nein</b> &amp; danke',
      allowText: '   ',
      cookieSettingsDesc: '<p>Wählen</p>',
    };
    const texts = bannerTexts(config, t, 'https://x.example/seite');
    expect(texts.title).toEqual(['Cookies & ', { tag: 'em', children: ['Sie'] }]);
    expect(texts.message).toEqual([
      'Hallo ',
      { tag: 'a', children: ['böse'] },
      ' ',
      { tag: 'a', href: 'https://x.example/info', children: ['Info'] },
    ]);
    expect(texts.decline).toBe('Nein & danke');
    expect(texts.acceptAll).toBe('Alle akzeptieren');
    expect(texts.settingsDesc).toEqual([{ tag: 'p', children: ['Wählen'] }]);
    expect((globalThis as { hit?: unknown }).hit).toBeUndefined();
  });
});
