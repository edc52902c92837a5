import { CATEGORY_IDS, type CategoryId, type Config } from '../config';
import { isRecord } from '../platform/record';
import type { Categories, ConsentState, ConsentStatus } from '../context';

/** com_gdpr's localStorage key of a visitor's category toggles: `{"3": 0, "4": 1}`, 0 = enabled. */
export const CHOICES_KEY = 'gdprCategoriesChoices';
/** Longer than any honest `{"1":0,"2":0,"3":0,"4":0}`: a bigger value is not parsed at all. */
const MAX_CHOICES_CHARS = 200;

/** What the start-up rule reads: the two cookies as stored, and com_gdpr's localStorage read on demand. */
export interface StartupInput {
  status: string | null;
  categories: string | null;
  /** Raw `gdprCategoriesChoices`; called only for a status com_gdpr set (no categories cookie). */
  choices: () => string | null;
}

/** The categories before any choice: opt-out uses each category's default, opt-in only the locked ones. */
export function defaultCategories(config: Config): Categories {
  const out = {} as Categories;
  for (const id of CATEGORY_IDS) {
    const category = config.categories[id];
    out[id] = category.locked || (config.complianceType === 'opt-out' && category.defaultOn);
  }
  return out;
}

/**
 * com_gdpr's category toggles as on/off per category; anything else (no JSON, not an object,
 * values other than 0/1, oversized text) counts as "no toggles": a hostile value changes nothing.
 */
export function parseChoices(raw: string | null): Partial<Categories> {
  const out: Partial<Categories> = {};
  if (!raw || raw.length > MAX_CHOICES_CHARS) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return out;
  }
  if (!isRecord(parsed)) return out;
  for (const id of CATEGORY_IDS) {
    const value = Object.prototype.hasOwnProperty.call(parsed, id) ? (parsed as Record<CategoryId, unknown>)[id] : null;
    if (value === 0 || value === 1 || value === '0' || value === '1') out[id] = +value === 0;
  }
  return out;
}

/**
 * The one start-up rule: our own categories cookie when present; else, for a status com_gdpr set,
 * `deny` = only the locked categories, `dismiss` = the defaults, `allow` = per category what the
 * server allows (gdprCookieCategoryDisabledN = 1 keeps it off), then the visitor's com_gdpr toggle,
 * then the default. `allow` never means "all": com_gdpr's "Allow cookies" switched on nothing.
 */
export function startupConsent(input: StartupInput, config: Config): Omit<ConsentState, 'services' | 'id'> {
  const raw = input.status;
  const status: ConsentStatus | null = raw === 'allow' || raw === 'deny' || raw === 'dismiss' ? raw : null;
  const defaults = defaultCategories(config);
  if (!status) return { status: null, categories: defaults, chosen: false };
  const listed = input.categories;
  const own = listed !== null && /^[1-4](\.[1-4])*$|^$/.test(listed) ? new Set(listed.split('.').map(Number)) : null;
  const toggles = own || status !== 'allow' ? {} : parseChoices(input.choices());
  const categories = {} as Categories;
  for (const id of CATEGORY_IDS) {
    const category = config.categories[id];
    categories[id] =
      category.locked ||
      (own
        ? own.has(id)
        : status === 'dismiss'
          ? defaults[id]
          : status === 'allow' && !category.disabled && (toggles[id] ?? category.defaultOn));
  }
  return { status, categories, chosen: true };
}
