import type { consents as de } from '../de/consents';
import { counter } from '../count';

/** A count in English (1,504). */
const n = counter('en');

/** The admin area's English texts, the keys of de/consents.ts: the consent statistics, the consent log and its erasure. */
export const consents: typeof de = {
  consentTitle: 'Consents over time',
  consentHint: 'Share of the visitors who made a choice in that part of the period and allow the category.',
  consentTotal: 'In the whole period',
  consentCounted: 'Counted: every visitor who made a choice in the period, including those who decline statistics.',
  deciders: 'Choices',
  logTitle: 'Records',
  pseudonym: 'Visitor pseudonym',
  pseudonymHint: 'e.g. 3f9a0c1b2d4e',
  consentId: 'Consent ID',
  consentIdHint: "as in the visitor's settings dialog",
  showConsent: 'Show only this consent ID',
  eraseBy: 'Erase by',
  search: 'Search',
  reset: 'Reset',
  exportCsv: 'Export as CSV',
  time: 'Time',
  kind: 'Kind',
  kinds: { generic: 'General', category: 'Category', form: 'Form' },
  category: 'Category',
  choice: 'Choice',
  allow: 'allowed',
  deny: 'denied',
  given: 'given',
  withdrawn: 'withdrawn',
  userAgent: 'Browser (user agent)',
  details: 'Form',
  formName: 'Form id',
  showVisitor: 'Show only this visitor',
  newest: (count: number) => `The newest ${n(count)} records.`,
  newestAll: (count: number) => `The newest ${n(count)} records. The CSV export has them all.`,
  loadOlder: 'Load older',
  eraseTitle: "Erase a visitor's data",
  eraseHint:
    'Deletes every consent, form data, click and visit of this pseudonym, or of every session with this consent ID (right to erasure).',
  erase: 'Erase for good',
  eraseConfirm: (p: string) => `Erase all data of ${p} for good?`,
  /** At the erasure's or the search's field when the collector refused its value (under it, and what the field's description reads). */
  pseudonymInvalid: 'Enter exactly 12 characters of 0–9 and a–f, such as 3f9a0c1b2d4e.',
  consentIdInvalid: 'Enter 16 to 64 characters of letters, digits, - and _.',
  /** The erasure's result, or the log's failure after a search, for it, naming the field. */
  pseudonymFailed: (label: string) => `“${label}” must be exactly 12 characters of 0–9 and a–f.`,
  consentIdFailed: (label: string) => `“${label}” must be 16 to 64 characters of letters, digits, - and _.`,
  /** Before that text in the log's alert when the form's own check refused the search: nothing was asked, so nothing failed to load. */
  searchNotMade: 'Not searched:',
  erased: (records: number) => `${n(records)} records erased.`,
  nothingErased: 'Nothing found: nothing is stored for this pseudonym or consent ID. Nothing was deleted.',
};
