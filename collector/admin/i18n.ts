/** The admin area's languages: German first (the product's), English second. */
export type Lang = 'de' | 'en';

const de = {
  title: 'PagePulse Verwaltung',
  skip: 'Zum Inhalt springen',
  language: 'English',
  languageLabel: 'Switch to English',
  logout: 'Abmelden',
  nav: 'Bereiche',
  views: {
    overview: 'Übersicht',
    clicks: 'Klicks',
    consentStats: 'Einwilligungen',
    log: 'Einwilligungsprotokoll',
    settings: 'Aufbewahrung',
  },
  loading: 'Lädt …',
  failed: 'Laden fehlgeschlagen:',
  onlineNow: 'Jetzt online',
  onlineHint: 'Besucher mit einem Herzschlag in den letzten Sekunden; aktualisiert sich alle 5 s.',
  visitors: 'Besucher',
  page: 'Seite',
  pageViews: 'Seitenaufrufe',
  viewsPerDay: 'Seitenaufrufe pro Tag (30 Tage, UTC)',
  chartTable: 'Werte als Tabelle',
  day: 'Tag',
  topPages: 'Meistbesuchte Seiten (30 Tage)',
  none: 'Noch keine Daten.',
  clicksTitle: 'Meistgeklickte Elemente pro Seite',
  clicksHint: 'Der Link öffnet die Seite mit der Heatmap-Ansicht (PagePulse muss auf der Seite eingebunden sein).',
  selector: 'Selektor',
  clicks: 'Klicks',
  openHeatmap: 'Mit Heatmap öffnen',
  consentTitle: 'Einwilligungen pro Tag (30 Tage, UTC)',
  consentHint: 'Anteil der Besucher, die an diesem Tag eine Auswahl getroffen haben und die Kategorie erlauben.',
  deciders: 'Entscheidungen',
  categories: { 1: 'Notwendig', 2: 'Präferenzen', 3: 'Statistiken', 4: 'Marketing' } as Record<number, string>,
  logTitle: 'Einträge',
  from: 'Von',
  to: 'Bis',
  pseudonym: 'Besucher-Pseudonym',
  pseudonymHint: 'z. B. 3f9a0c1b2d4e',
  search: 'Suchen',
  reset: 'Zurücksetzen',
  exportCsv: 'Als CSV exportieren',
  time: 'Zeit',
  kind: 'Art',
  kinds: { generic: 'Allgemein', category: 'Kategorie', form: 'Formular' } as Record<string, string>,
  category: 'Kategorie',
  choice: 'Auswahl',
  allow: 'erlaubt',
  deny: 'abgelehnt',
  given: 'erteilt',
  withdrawn: 'widerrufen',
  userAgent: 'Browser (User-Agent)',
  details: 'Formular',
  formName: 'Formular-ID',
  showVisitor: 'Nur diesen Besucher zeigen',
  rows: (n: number) => `${n} Einträge`,
  eraseTitle: 'Daten eines Besuchers löschen',
  eraseHint: 'Löscht alle Einwilligungen, Formulardaten, Klicks und Besuche dieses Pseudonyms (Recht auf Löschung).',
  erase: 'Endgültig löschen',
  eraseConfirm: (p: string) => `Alle Daten des Besuchers ${p} endgültig löschen?`,
  erased: (records: number) => `${records} Datensätze gelöscht.`,
  retentionTitle: 'Automatisch löschen',
  retentionHint:
    'Was nach wie vielen Tagen gelöscht wird (0 = nie). Cookie-Einwilligungen sind der Nachweis der Einwilligung: 3 Jahre entsprechen der regelmäßigen Verjährungsfrist.',
  retentionDays: 'Formular-Einwilligungen und Anwesenheitsdaten (Tage)',
  clickRetentionDays: 'Klicks der Heatmap (Tage)',
  consentRetentionDays: 'Cookie-Einwilligungen (Tage)',
  save: 'Speichern',
  saved: (n: number) => `Gespeichert. ${n} alte Datensätze gelöscht.`,
  savedOff: 'Gespeichert. Automatisches Löschen ist aus.',
};

const en: typeof de = {
  title: 'PagePulse admin',
  skip: 'Skip to content',
  language: 'Deutsch',
  languageLabel: 'Auf Deutsch umschalten',
  logout: 'Sign out',
  nav: 'Sections',
  views: { overview: 'Overview', clicks: 'Clicks', consentStats: 'Consents', log: 'Consent log', settings: 'Retention' },
  loading: 'Loading …',
  failed: 'Loading failed:',
  onlineNow: 'Online now',
  onlineHint: 'Visitors with a heartbeat in the last seconds; refreshes every 5 s.',
  visitors: 'Visitors',
  page: 'Page',
  pageViews: 'Page views',
  viewsPerDay: 'Page views per day (30 days, UTC)',
  chartTable: 'Values as a table',
  day: 'Day',
  topPages: 'Top pages (30 days)',
  none: 'No data yet.',
  clicksTitle: 'Most clicked elements per page',
  clicksHint: 'The link opens the page with the heatmap overlay (the page must include PagePulse).',
  selector: 'Selector',
  clicks: 'Clicks',
  openHeatmap: 'Open with heatmap',
  consentTitle: 'Consents per day (30 days, UTC)',
  consentHint: 'Share of the visitors who made a choice that day and allow the category.',
  deciders: 'Choices',
  categories: { 1: 'Necessary', 2: 'Preferences', 3: 'Statistics', 4: 'Marketing' },
  logTitle: 'Records',
  from: 'From',
  to: 'To',
  pseudonym: 'Visitor pseudonym',
  pseudonymHint: 'e.g. 3f9a0c1b2d4e',
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
  rows: (n: number) => `${n} records`,
  eraseTitle: "Erase a visitor's data",
  eraseHint: 'Deletes every consent, form data, click and visit of this pseudonym (right to erasure).',
  erase: 'Erase for good',
  eraseConfirm: (p: string) => `Erase all data of visitor ${p} for good?`,
  erased: (records: number) => `${records} records erased.`,
  retentionTitle: 'Automatic deletion',
  retentionHint:
    'What is deleted after how many days (0 = never). Cookie consents are the proof of consent: 3 years is the regular limitation period.',
  retentionDays: 'Form consents and presence data (days)',
  clickRetentionDays: 'Heatmap clicks (days)',
  consentRetentionDays: 'Cookie consents (days)',
  save: 'Save',
  saved: (n: number) => `Saved. ${n} old records deleted.`,
  savedOff: 'Saved. Automatic deletion is off.',
};

/** The texts of one language. */
export type Messages = typeof de;
export const MESSAGES: Record<Lang, Messages> = { de, en };

const KEY = 'pagepulse-admin-lang';

/** The chosen language (German unless English was picked before). */
export function storedLang(): Lang {
  try {
    return localStorage.getItem(KEY) === 'en' ? 'en' : 'de';
  } catch {
    return 'de';
  }
}

/** Remember the language for the next visit. */
export function storeLang(lang: Lang): void {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // private mode: the choice lasts for this page only
  }
}
