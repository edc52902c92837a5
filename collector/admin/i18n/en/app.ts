import type { app as de } from '../de/app';
import { counter } from '../count';

/** A count in English (1,504). */
const n = counter('en');

/** The admin area's English texts, the keys of de/app.ts: the shell, the period picker and the words several views share. */
export const app: typeof de = {
  title: 'PagePulse admin',
  skip: 'Skip to content',
  language: 'Deutsch',
  languageLabel: 'Auf Deutsch umschalten',
  logout: 'Sign out',
  nav: 'Sections',
  views: { overview: 'Overview', clicks: 'Clicks', consentStats: 'Consents', log: 'Consent log', settings: 'Settings' },
  loading: 'Loading …',
  failed: 'Loading failed:',
  actionFailed: 'Failed:',
  /** Before the reason a CSV export failed. */
  downloadFailed: 'CSV export failed:',
  period: 'Period',
  periods: { today: 'Today', '7d': 'Last 7 days', '30d': 'Last 30 days', '12m': 'Last 12 months', custom: 'Custom range' },
  apply: 'Apply',
  periodShown: (current: string, previous: string, zone: string) => `${current}, compared with ${previous} (time zone ${zone})`,
  periodOnly: (current: string, zone: string) => `${current} (time zone ${zone})`,
  counted: 'Counted: visitors who allowed statistics. Visitors who decline statistics send no data.',
  previous: 'before',
  previousPeriod: 'Previous period',
  bucket: { hour: 'Hour', day: 'Day', month: 'Month' },
  unknown: 'unknown',
  none: 'No data yet.',
  notFiltered: "The overview's filters do not apply here: consent choices belong to no visit. The whole period is counted.",
  categories: { 1: 'Necessary', 2: 'Preferences', 3: 'Statistics', 4: 'Marketing' },
  from: 'From',
  to: 'To',
  /** Under a custom range's day that is missing or outside its range (its own check: min and max), the days in the admin's format. */
  dayInvalid: (min: string | null, max: string) => (min ? `Enter a day from ${min} to ${max}.` : `Enter a day up to ${max}.`),
  /** Said (live region) when a custom range is not applied for that day, naming the field. */
  dayFailed: (label: string) => `Not applied: “${label}” is not a valid day of the range.`,
  rows: (count: number) => `${n(count)} records`,
};
