import type { CategoryId } from '../config';
import type { Categories, ConsentStatus } from './store';

/** EU, EEA, the UK and Switzerland: consent must be asked there; elsewhere it is accepted automatically. */
const ASK_COUNTRIES = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO GB CH'.split(' '),
);

/** Whether a visitor from `country` is accepted without asking (docs/protocol.md#constants: accept by country). */
export function acceptsByCountry(country: string | null): boolean {
  return country !== null && !ASK_COUNTRIES.has(country.toUpperCase());
}

/** The categories an automatic acceptance turns on: all offered, marketing not under Global Privacy Control. */
export function automaticCategories(offered: Record<CategoryId, boolean>, globalPrivacyControl: boolean): Categories {
  return { 1: true, 2: offered[2], 3: offered[3], 4: offered[4] && !globalPrivacyControl };
}

/** The status a set of categories stands for: `allow` when any optional category (2-4) is on, else `deny`. */
export function statusFor(categories: Categories): Extract<ConsentStatus, 'allow' | 'deny'> {
  return categories[2] || categories[3] || categories[4] ? 'allow' : 'deny';
}

/** The category a `data-category` value names: a number 1-4 or a German/English name. */
export function categoryOf(value: string | null): CategoryId | null {
  const text = (value ?? '').trim().toLowerCase();
  const index = [
    '1 notwendig necessary',
    '2 präferenzen praferenzen preferences',
    '3 statistiken statistics',
    '4 marketing',
  ].findIndex((names) => names.split(' ').includes(text));
  return index < 0 ? null : ((index + 1) as CategoryId);
}

/** Google Consent Mode v2 signals for a set of categories (protocol section 10). */
export function consentModeSignals(categories: Categories): Record<string, 'granted' | 'denied'> {
  const state = (on: boolean) => (on ? 'granted' : 'denied');
  return {
    security_storage: 'granted',
    functionality_storage: state(categories[2]),
    personalization_storage: state(categories[2]),
    analytics_storage: state(categories[3]),
    ad_storage: state(categories[4]),
    ad_user_data: state(categories[4]),
    ad_personalization: state(categories[4]),
  };
}

/** Tracked form fields (com_gdpr): name or id containing one of these. */
const TRACKED_FIELDS = /name|email|subject|message/i;

/** The label com_gdpr logs for a form field: id or name, `jform` and brackets removed, `-`/`_` as spaces. */
export function fieldLabel(idOrName: string): string {
  return idOrName.replace(/jform/gi, '').replace(/[[\]]/g, ' ').replace(/[-_]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Whether a form field is one whose value the form-consent log records. */
export function isTrackedField(idOrName: string): boolean {
  return TRACKED_FIELDS.test(idOrName);
}
