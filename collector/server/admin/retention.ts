import type { RetentionDays } from '../../shared/admin-api';
import { presenceKeptMs, type RetentionPlan, type SettingsStore } from '../store';

/**
 * How long each kind of personal data is kept (the admin's *Aufbewahrung*; docs/collector.md
 * "Retention"). Nothing is kept forever: each setting is 1 to 3650 days, with a default:
 *
 * - page views, visits and their sessions (user agent, window size): 400 days, a year to compare
 *   with and a season more (the day totals of the dashboard, which count no one, stay);
 * - heatmap clicks: 400 days, the same;
 * - form consents (the form's fields, an e-mail address among them) and cookie-consent records:
 *   3 years (1,095 days), the proof of consent for the regular limitation period under German
 *   civil law (three years from the end of the year).
 *
 * The admin's own rows end by their lifetimes (sessions 8 h, known browsers 90 days, sign-in
 * attempts a minute); presence rows after an hour, or the presence window if longer.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Longest retention accepted: ten years. */
export const MAX_RETENTION_DAYS = 3650;

/** Each setting: its key in `admin_settings` and its default in days. */
export const RETENTION: Record<keyof RetentionDays, { key: string; days: number }> = {
  visitRetentionDays: { key: 'visit_retention_days', days: 400 },
  clickRetentionDays: { key: 'click_retention_days', days: 400 },
  formRetentionDays: { key: 'form_retention_days', days: 3 * 365 },
  consentRetentionDays: { key: 'consent_retention_days', days: 3 * 365 },
};

/**
 * The retention settings in days. A stored 0 (an older collector's "keep forever") counts as the
 * default; an older collector's one `retention_days` (form consents and presence data) stands for
 * visits and form consents until they are set apart.
 */
export async function retentionDays(settings: SettingsStore): Promise<RetentionDays> {
  const legacy = Number((await settings.get('retention_days')) ?? 0);
  const read = async (name: keyof RetentionDays): Promise<number> => {
    const stored = Number((await settings.get(RETENTION[name].key)) ?? 0);
    if (stored >= 1) return Math.min(stored, MAX_RETENTION_DAYS);
    if (legacy >= 1 && (name === 'visitRetentionDays' || name === 'formRetentionDays'))
      return Math.min(legacy, MAX_RETENTION_DAYS);
    return RETENTION[name].days;
  };
  return {
    visitRetentionDays: await read('visitRetentionDays'),
    clickRetentionDays: await read('clickRetentionDays'),
    formRetentionDays: await read('formRetentionDays'),
    consentRetentionDays: await read('consentRetentionDays'),
  };
}

/** What the retention run deletes at `now` under these settings and the live counts' presence window. */
export function retentionPlan(days: RetentionDays, now: number, presenceWindowMs: number): RetentionPlan {
  return {
    visits: now - days.visitRetentionDays * DAY_MS,
    presence: now - presenceKeptMs(presenceWindowMs),
    clicks: now - days.clickRetentionDays * DAY_MS,
    formConsents: now - days.formRetentionDays * DAY_MS,
    cookieConsents: now - days.consentRetentionDays * DAY_MS,
    now,
  };
}
