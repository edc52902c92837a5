import { counter } from '../count';

/** A count in German (1.504). */
const n = counter('de');

/** The admin area's German texts: the settings (time zone, retention, API tokens). */
export const settings = {
  timeZoneTitle: 'Zeitzone',
  timeZoneLabel: 'Zeitzone der Website (IANA-Name)',
  timeZoneHint: 'Zum Beispiel Europe/Berlin. Tage, Stunden und Monate aller Ansichten richten sich nach ihr.',
  savedZone: 'Gespeichert.',
  /** The result when the field is empty (its own check), which describes the field. */
  timeZoneMissing: 'Bitte einen IANA-Namen wie Europe/Berlin angeben.',
  retentionTitle: 'Automatisch löschen',
  /** Above the retention fields; the range is the inputs' min and max (views/Retention.tsx DAYS), as in their messages. */
  retentionHint: ({ min, max }: { min: number; max: number }) =>
    `Was nach wie vielen Tagen gelöscht wird (${n(min)} bis ${n(max)}; nichts bleibt für immer). Die Tagessummen der Übersicht zählen niemanden und bleiben, nach Ablauf der Frist ohne Seitenadressen, verweisende Pfade, Kampagnen und Selektoren. Einwilligungen sind der Nachweis der Einwilligung: 3 Jahre entsprechen der regelmäßigen Verjährungsfrist.`,
  visitRetentionDays: 'Seitenaufrufe und Besuche (Tage)',
  clickRetentionDays: 'Klicks der Heatmap (Tage)',
  formRetentionDays: 'Formular-Einwilligungen (Tage)',
  consentRetentionDays: 'Cookie-Einwilligungen (Tage)',
  /** At a retention field refused, by its own check or the collector (under it, and what the field's description reads); the range is the input's min and max. */
  retentionInvalid: ({ min, max }: { min: number; max: number }) => `Eine ganze Zahl von ${n(min)} bis ${n(max)} angeben.`,
  /** The form's result for that field, naming it. */
  retentionFieldFailed: (label: string, { min, max }: { min: number; max: number }) =>
    `„${label}“ muss eine ganze Zahl von ${n(min)} bis ${n(max)} sein.`,
  save: 'Speichern',
  retentionConfirm: (changes: Array<[field: string, from: number, to: number]>) =>
    `Kürzere Fristen löschen ältere Daten sofort und endgültig: ${changes.map(([field, from, to]) => `${field} ${n(from)} → ${n(to)}`).join('; ')}. Speichern?`,
  saved: (count: number) => `Gespeichert. ${n(count)} alte Datensätze gelöscht.`,
  tokens: {
    title: 'Zugriff für Programme (Statistik-API)',
    hint: 'Ein Token liest die Zahlen der Übersicht über GET /api/v1/stats (nur lesen, 60 Anfragen pro Minute). Es wird nur einmal angezeigt und nur als Prüfsumme gespeichert.',
    name: 'Name (wofür)',
    make: 'Token erstellen',
    /** At the name when the collector refused it (under it, and what the field's description reads). */
    nameInvalid: 'Einen Namen mit 1 bis 100 Zeichen angeben (nicht nur Leerzeichen), ohne Steuerzeichen.',
    /** The form's result for it, naming the field. */
    nameFailed: (label: string) => `„${label}“ muss 1 bis 100 Zeichen lang sein, ohne Steuerzeichen.`,
    shownOnce: (name: string) => `Token „${name}“ – jetzt kopieren, es wird nicht noch einmal angezeigt:`,
    none: 'Noch keine Tokens.',
    prefix: 'Beginnt mit',
    created: 'Erstellt',
    lastUsed: 'Zuletzt benutzt',
    state: 'Status',
    revoke: 'Widerrufen',
    revoked: 'widerrufen',
    revokeConfirm: (name: string) => `Token „${name}“ widerrufen? Programme damit erhalten sofort keinen Zugriff mehr.`,
    madeDone: (name: string) => `Token „${name}“ erstellt. Es steht unter dem Formular und wird nur dieses eine Mal angezeigt.`,
    revokeDone: (name: string) => `Token „${name}“ widerrufen.`,
  },
};
