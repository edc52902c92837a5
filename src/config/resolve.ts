import * as z from '../platform/schema-core';
import { maxLength, string } from '../platform/schema';
import type { CategoryId } from './categories';
import { defaultConfig, type CategoryConfig, type Config, type Service } from './config';
import * as f from './fields';

/** A flat key a source can set: a Config key, or one category's field. */
export type FieldKey = Exclude<keyof Config, 'categories'> | `category${CategoryId}.${Exclude<keyof CategoryConfig, never>}`;

// the schema of every settable key
const SCALARS = {
  base: f.baseUrl,
  lang: f.lang,
  debug: f.onOff,
  tracker: f.onOff,
  consent: f.onOff,
  respectConsent: f.onOff,
  keepalive: f.keepalive,
  keepaliveUrl: f.safeUrl,
  stateInput: f.selector,
  selectors: f.selectorMode,
  privacyUrl: f.safeUrl,
  country: f.country,
  csrfToken: string().check(maxLength(200)),
  requestTimeout: f.timeoutMs,
  complianceType: f.complianceType,
  revokable: f.onOff,
  reloadAfterChange: f.onOff,
  placeholders: f.onOff,
  placeholderText: f.text,
  denyMessageEnabled: f.onOff,
  denyMessage: f.text,
  logConsent: f.onOff,
  useCategories: f.onOff,
  descriptionUrl: f.safeUrl,
  gcm: f.gcm,
  collector: f.baseUrl,
  openAlwaysDeclined: f.onOff,
  headerText: f.text,
  messageText: f.text,
  cookieSettingsDesc: f.text,
  denyText: f.text,
  allowText: f.text,
  cookieSettingsLabel: f.text,
  privacyPolicyLinkText: f.text,
  cookiePolicyLinkText: f.text,
  cookiePolicyLink: f.safeUrl,
  services: f.serviceEntry,
  revision: f.revision,
} satisfies Record<Exclude<keyof Config, 'categories'>, z.Schema<unknown>>;

const CATEGORY_FIELDS = {
  offered: f.onOff,
  name: f.text,
  locked: f.onOff,
  defaultOn: f.onOff,
  domains: f.domainList,
  disabled: f.onOff,
  cookies: f.cookiePatterns,
} satisfies Record<keyof CategoryConfig, z.Schema<unknown>>;

/** Whether a name is a settable top-level key (PagePulseConfig accepts exactly these). */
export function isScalarKey(name: string): name is Exclude<keyof Config, 'categories'> {
  return Object.prototype.hasOwnProperty.call(SCALARS, name);
}

/** Whether a name is a settable per-category field. */
export function isCategoryField(name: string): name is keyof CategoryConfig {
  return Object.prototype.hasOwnProperty.call(CATEGORY_FIELDS, name);
}

/** One raw value from one source; `label` names it in warnings (e.g. `data-keepalive`). */
export interface RawSetting {
  key: FieldKey;
  value: unknown;
  label: string;
}

/**
 * Fold raw settings (lowest precedence first) over the defaults. A value that fails its schema
 * is reported once through `warn` with its label and ignored, so the earlier value stays.
 */
export function resolveConfig(settings: readonly RawSetting[], warn: (message: string) => void): Config {
  const config = defaultConfig();
  for (const { key, value, label } of settings) {
    if (value === undefined) continue;
    const dot = key.indexOf('.');
    const schema: z.Schema<unknown> | undefined =
      dot < 0 ? SCALARS[key as keyof typeof SCALARS] : CATEGORY_FIELDS[key.slice(dot + 1) as keyof CategoryConfig];
    if (!schema) continue;
    const parsed = z.safeParse(schema, value);
    if (!parsed.success) {
      warn(
        `PagePulse: ignoring invalid config value for "${label}" (${describe(value)}): ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
      continue;
    }
    if (key === 'services') {
      // one entry per setting (sources.ts): an entry replaces the table's, null drops it
      for (const [name, entry] of Object.entries(parsed.data as Record<string, Service | null>)) {
        if (entry) config.services[name] = { hosts: [], cookies: [], ...(entry as Partial<Service>) } as Service;
        else delete config.services[name];
      }
    } else if (dot < 0) {
      (config as unknown as Record<string, unknown>)[key] = parsed.data;
    } else {
      const id = Number(key.slice('category'.length, dot)) as CategoryId;
      (config.categories[id] as unknown as Record<string, unknown>)[key.slice(dot + 1)] = parsed.data;
    }
  }
  config.categories[1].locked = true; // necessary cookies are never optional
  config.categories[1].defaultOn = true;
  return config;
}

function describe(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
