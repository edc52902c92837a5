import { isRecord } from '../platform/record';
import { CATEGORY_IDS, type CategoryId } from './config';
import { isCategoryField, isScalarKey, type FieldKey, type RawSetting } from './resolve';

/** What the config reader may look at; passed in so nothing reads `window` at import time. */
export interface ConfigEnv {
  win: Window & Record<string, unknown>;
  doc: Document;
  /** The bundle's own <script> (document.currentScript at evaluation), if known. */
  script: HTMLScriptElement | null;
  warn: (message: string) => void;
}

/** Keys settable by a data-* attribute (protocol section 2, source 4): `respectConsent` is `data-respect-consent`. */
const DATA_KEYS: readonly FieldKey[] = [
  'base',
  'lang',
  'debug',
  'tracker',
  'consent',
  'respectConsent',
  'keepalive',
  'stateInput',
  'selectors',
  'privacyUrl',
  'country',
  'collector',
  'revision',
  'complianceType',
];
/** Attribute names that are not the key in kebab case. */
const DATA_NAMES: Partial<Record<FieldKey, string>> = { complianceType: 'data-compliance' };

/** com_gdpr's gdprConfigurationOptions keys -> config keys (a lone name: the same key). */
const GDPR_OPTIONS: ReadonlyArray<readonly [string, FieldKey] | FieldKey> = [
  'complianceType',
  'revokable',
  ['alwaysReloadAfterCategoriesChange', 'reloadAfterChange'],
  ['placeholderBlockedResources', 'placeholders'],
  ['placeholderBlockedResourcesText', 'placeholderText'],
  'denyMessageEnabled',
  'denyMessage',
  ['privacyPolicyLink', 'privacyUrl'],
  // the banner texts keep com_gdpr's names (protocol section 5)
  'openAlwaysDeclined',
  'headerText',
  'messageText',
  'cookieSettingsDesc',
  'denyText',
  'allowText',
  'cookieSettingsLabel',
  'privacyPolicyLinkText',
  'cookiePolicyLinkText',
  'cookiePolicyLink',
];

/**
 * Every configuration source of protocol section 2, lowest precedence first. Reading a hostile
 * page's globals may throw (getters, proxies): each read is guarded and reported.
 */
export function readSources(env: ConfigEnv): RawSetting[] {
  const out: RawSetting[] = [];
  const push = (key: FieldKey, value: unknown, label: string): void => {
    if (value !== undefined && value !== null) out.push({ key, value, label });
  };
  const global = (name: string): unknown => guard(() => env.win[name], env.warn, name);
  const pushGlobal = (key: FieldKey, name: string): void => push(key, global(name), name);

  // 2. what the page declares: html lang, com_gdpr, Joomla options, the analytics component
  const htmlLang = env.doc.documentElement?.getAttribute('lang')?.slice(0, 2).toLowerCase();
  if (htmlLang === 'de' || htmlLang === 'en') push('lang', htmlLang, '<html lang>');

  pushGlobal('base', 'gdpr_ajax_livesite');
  const gdpr = asRecord(global('gdprConfigurationOptions'));
  if (gdpr) {
    const option = (name: string, key: FieldKey): void => {
      const label = `gdprConfigurationOptions.${name}`;
      const value = guard(() => gdpr[name], env.warn, label);
      // com_gdpr's default link is `javascript:void(0)` ("no page"): not worth a warning
      if (!(name.endsWith('Link') && /^\s*javascript:/i.test(String(value)))) push(key, value, label);
    };
    for (const entry of GDPR_OPTIONS) option(...(typeof entry === 'string' ? ([entry, entry] as const) : entry));
    for (const id of CATEGORY_IDS) {
      option(`cookieCategory${id}Enable`, `category${id}.offered`);
      option(`cookieCategory${id}Name`, `category${id}.name`);
      option(`cookieCategory${id}Locked`, `category${id}.locked`);
    }
  }
  for (const id of CATEGORY_IDS) {
    const disabled = global(`gdprCookieCategoryDisabled${id}`);
    if (disabled !== undefined) {
      const off = disabled === 1 || disabled === '1' || disabled === true;
      push(`category${id}.defaultOn`, !off, `gdprCookieCategoryDisabled${id}`);
      push(`category${id}.disabled`, off, `gdprCookieCategoryDisabled${id}`);
    }
  }
  pushGlobal('logConsent', 'gdpr_enable_log_cookie_consent');
  pushGlobal('useCategories', 'gdprUseCookieCategories');
  pushGlobal('descriptionUrl', 'gdpr_ajaxendpoint_cookie_category_desc');

  const joomla = joomlaOptions(env);
  const paths = asRecord(joomla['system.paths']);
  if (paths && typeof paths.root === 'string') push('base', `${paths.root}/`, 'system.paths.root');
  push('csrfToken', joomla['csrf.token'], 'csrf.token');
  const keepalive = asRecord(joomla['system.keepalive']);
  if (keepalive) {
    push('keepalive', keepalive.interval, 'system.keepalive.interval');
    push('keepaliveUrl', keepalive.uri, 'system.keepalive.uri');
  }
  pushGlobal('base', 'jrealtimeBaseURI');

  // 3. window.PagePulseConfig
  const own = global('PagePulseConfig');
  if (own !== undefined) {
    const record = asRecord(own);
    if (!record) env.warn('PagePulse: ignoring window.PagePulseConfig: not an object');
    else readOwnConfig(record, push, env.warn);
  }

  // 4. data-* attributes on our own script tag
  if (env.script) {
    for (const key of DATA_KEYS) {
      const attribute = DATA_NAMES[key] ?? `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      const value = env.script.getAttribute(attribute);
      if (value !== null) push(key, value, attribute);
    }
  }

  // 5. ?pagepulse-debug=1 in the address (QA)
  const debugParam = guard(() => new URL(env.win.location.href).searchParams.get('pagepulse-debug'), env.warn, 'location');
  if (debugParam === '1') push('debug', true, '?pagepulse-debug');
  return out;
}

function readOwnConfig(
  record: Record<string, unknown>,
  push: (key: FieldKey, value: unknown, label: string) => void,
  warn: (message: string) => void,
): void {
  for (const [name, value] of Object.entries(record)) {
    if (name === 'categories') {
      const categories = asRecord(value);
      for (const [idText, fields] of Object.entries(categories ?? {})) {
        const id = Number(idText) as CategoryId;
        const fieldRecord = asRecord(fields);
        if (!CATEGORY_IDS.includes(id) || !fieldRecord) {
          warn(`PagePulse: ignoring PagePulseConfig.categories.${idText}: expected a category 1-4 with an object`);
          continue;
        }
        for (const [field, fieldValue] of Object.entries(fieldRecord)) {
          if (isCategoryField(field)) {
            push(`category${id}.${field}`, fieldValue, `PagePulseConfig.categories.${id}.${field}`);
          } else warn(`PagePulse: ignoring unknown config key "PagePulseConfig.categories.${id}.${field}"`);
        }
      }
    } else if (name === 'services') {
      // one setting per entry: a bad key or entry is reported on its own, the others stay
      const services = asRecord(value);
      if (!services) warn('PagePulse: ignoring PagePulseConfig.services: not an object');
      for (const [key, entry] of Object.entries(services ?? {})) {
        if (/^[a-z0-9-]{1,32}$/.test(key)) push('services', { [key]: entry }, `PagePulseConfig.services.${key}`);
        else warn(`PagePulse: ignoring PagePulseConfig.services.${key}: a key is 1 to 32 of a-z, 0-9 and -`);
      }
    } else if (isScalarKey(name)) {
      push(name, value, `PagePulseConfig.${name}`);
    } else {
      warn(`PagePulse: ignoring unknown config key "PagePulseConfig.${name}"`);
    }
  }
}

/** Joomla 4/5 script options: the JSON script elements, else Joomla.getOptions(). */
function joomlaOptions(env: ConfigEnv): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  let found = false;
  for (const element of env.doc.querySelectorAll('script.joomla-script-options')) {
    const parsed = guard(() => JSON.parse(element.textContent ?? '') as unknown, env.warn, 'joomla-script-options');
    const record = asRecord(parsed);
    if (record) {
      Object.assign(merged, record);
      found = true;
    }
  }
  if (found) return merged;
  const joomla = asRecord(guard(() => env.win.Joomla, env.warn, 'Joomla'));
  if (joomla && typeof joomla.getOptions === 'function') {
    const getOptions = joomla.getOptions as (key: string) => unknown;
    for (const key of ['csrf.token', 'system.paths', 'system.keepalive']) {
      const value = guard(() => getOptions.call(joomla, key), env.warn, `Joomla.getOptions('${key}')`);
      if (value !== undefined) merged[key] = value;
    }
  }
  return merged;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return isRecord(value) ? value : null;
}

function guard<T>(read: () => T, warn: (message: string) => void, label: string): T | undefined {
  try {
    return read();
  } catch (error) {
    warn(`PagePulse: could not read ${label}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
