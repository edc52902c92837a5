import type { settings as de } from '../de/settings';
import { counter } from '../count';

/** A count in English (1,504). */
const n = counter('en');

/** The admin area's English texts, the keys of de/settings.ts: the settings (time zone, retention, API tokens). */
export const settings: typeof de = {
  timeZoneTitle: 'Time zone',
  timeZoneLabel: "The site's time zone (IANA name)",
  timeZoneHint: 'For example Europe/Berlin. The days, hours and months of every view follow it.',
  savedZone: 'Saved.',
  /** The result when the field is empty (its own check), which describes the field. */
  timeZoneMissing: 'Enter an IANA name such as Europe/Berlin.',
  retentionTitle: 'Automatic deletion',
  /** Above the retention fields; the range is the inputs' min and max (views/Retention.tsx DAYS), as in their messages. */
  retentionHint: ({ min, max }: { min: number; max: number }) =>
    `What is deleted after how many days (${n(min)} to ${n(max)}; nothing is kept forever). The overview's day totals count no one and stay, past the retention without page addresses, referring paths, campaigns and selectors. Consents are the proof of consent: 3 years is the regular limitation period.`,
  visitRetentionDays: 'Page views and visits (days)',
  clickRetentionDays: 'Heatmap clicks (days)',
  formRetentionDays: 'Form consents (days)',
  consentRetentionDays: 'Cookie consents (days)',
  /** At a retention field refused, by its own check or the collector (under it, and what the field's description reads); the range is the input's min and max. */
  retentionInvalid: ({ min, max }: { min: number; max: number }) => `Enter a whole number from ${n(min)} to ${n(max)}.`,
  /** The form's result for that field, naming it. */
  retentionFieldFailed: (label: string, { min, max }: { min: number; max: number }) =>
    `“${label}” must be a whole number from ${n(min)} to ${n(max)}.`,
  save: 'Save',
  retentionConfirm: (changes: Array<[field: string, from: number, to: number]>) =>
    `Shorter periods delete older data at once and for good: ${changes.map(([field, from, to]) => `${field} ${n(from)} → ${n(to)}`).join('; ')}. Save?`,
  saved: (count: number) => `Saved. ${n(count)} old records deleted.`,
  tokens: {
    title: 'Access for programs (stats API)',
    hint: "A token reads the overview's figures with GET /api/v1/stats (read only, 60 requests a minute). It is shown once and stored only as a checksum.",
    name: 'Name (what for)',
    make: 'Create token',
    /** At the name when the collector refused it (under it, and what the field's description reads). */
    nameInvalid: 'Enter a name of 1 to 100 characters (not only spaces), without control characters.',
    /** The form's result for it, naming the field. */
    nameFailed: (label: string) => `“${label}” must be 1 to 100 characters, without control characters.`,
    shownOnce: (name: string) => `Token "${name}" – copy it now, it is not shown again:`,
    none: 'No tokens yet.',
    prefix: 'Starts with',
    created: 'Created',
    lastUsed: 'Last used',
    state: 'State',
    revoke: 'Revoke',
    revoked: 'revoked',
    revokeConfirm: (name: string) => `Revoke token "${name}"? Programs using it lose access at once.`,
    madeDone: (name: string) => `Token "${name}" created. It is shown below the form, this once only.`,
    revokeDone: (name: string) => `Token "${name}" revoked.`,
  },
};
