import { counter } from '../count';

/** A count in German (1.504). */
const n = counter('de');

/** The admin area's German texts: the consent statistics, the consent log and its erasure. */
export const consents = {
  consentTitle: 'Einwilligungen im Verlauf',
  consentHint: 'Anteil der Besucher, die in diesem Abschnitt eine Auswahl getroffen haben und die Kategorie erlauben.',
  consentTotal: 'Im ganzen Zeitraum',
  consentCounted: 'Gezählt: alle Besucher, die im Zeitraum eine Auswahl getroffen haben, auch wer Statistiken ablehnt.',
  deciders: 'Entscheidungen',
  logTitle: 'Einträge',
  pseudonym: 'Besucher-Pseudonym',
  pseudonymHint: 'z. B. 3f9a0c1b2d4e',
  consentId: 'Einwilligungs-ID',
  consentIdHint: 'wie im Einstellungsdialog des Besuchers',
  showConsent: 'Nur diese Einwilligungs-ID zeigen',
  eraseBy: 'Löschen nach',
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
  newest: (count: number) => `Die neuesten ${n(count)} Einträge.`,
  newestAll: (count: number) => `Die neuesten ${n(count)} Einträge. Alle stehen im CSV-Export.`,
  loadOlder: 'Ältere laden',
  eraseTitle: 'Daten eines Besuchers löschen',
  eraseHint:
    'Löscht alle Einwilligungen, Formulardaten, Klicks und Besuche dieses Pseudonyms, oder aller Sitzungen mit dieser Einwilligungs-ID (Recht auf Löschung).',
  erase: 'Endgültig löschen',
  eraseConfirm: (p: string) => `Alle Daten zu ${p} endgültig löschen?`,
  /** At the erasure's or the search's field when the collector refused its value (under it, and what the field's description reads). */
  pseudonymInvalid: 'Genau 12 Zeichen aus 0–9 und a–f angeben, z. B. 3f9a0c1b2d4e.',
  consentIdInvalid: '16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ angeben.',
  /** The erasure's result, or the log's failure after a search, for it, naming the field. */
  pseudonymFailed: (label: string) => `„${label}“ muss genau 12 Zeichen aus 0–9 und a–f haben.`,
  consentIdFailed: (label: string) => `„${label}“ muss 16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _ haben.`,
  /** Before that text in the log's alert when the form's own check refused the search: nothing was asked, so nothing failed to load. */
  searchNotMade: 'Nicht gesucht:',
  erased: (records: number) => `${n(records)} Datensätze gelöscht.`,
  nothingErased:
    'Nichts gefunden: Zu diesem Pseudonym bzw. dieser Einwilligungs-ID ist nichts gespeichert. Es wurde nichts gelöscht.',
};
