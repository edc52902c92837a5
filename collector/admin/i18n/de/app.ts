import { counter } from '../count';

/** A count in German (1.504). */
const n = counter('de');

/** The admin area's German texts: the shell, the period picker and the words several views share. */
export const app = {
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
    settings: 'Einstellungen',
  },
  loading: 'Lädt …',
  failed: 'Laden fehlgeschlagen:',
  actionFailed: 'Fehlgeschlagen:',
  /** Before the reason a CSV export failed. */
  downloadFailed: 'CSV-Export fehlgeschlagen:',
  period: 'Zeitraum',
  periods: {
    today: 'Heute',
    '7d': 'Letzte 7 Tage',
    '30d': 'Letzte 30 Tage',
    '12m': 'Letzte 12 Monate',
    custom: 'Eigener Zeitraum',
  } as Record<string, string>,
  apply: 'Anwenden',
  periodShown: (current: string, previous: string, zone: string) => `${current}, verglichen mit ${previous} (Zeitzone ${zone})`,
  periodOnly: (current: string, zone: string) => `${current} (Zeitzone ${zone})`,
  counted: 'Gezählt: Besucher, die Statistiken erlaubt haben. Wer Statistiken ablehnt, sendet keine Daten.',
  previous: 'vorher',
  previousPeriod: 'Vorperiode',
  bucket: { hour: 'Stunde', day: 'Tag', month: 'Monat' } as Record<string, string>,
  unknown: 'unbekannt',
  none: 'Noch keine Daten.',
  notFiltered:
    'Die Filter der Übersicht gelten hier nicht: Einwilligungen gehören zu keinem Besuch. Gezählt wird der ganze Zeitraum.',
  categories: { 1: 'Notwendig', 2: 'Präferenzen', 3: 'Statistiken', 4: 'Marketing' } as Record<number, string>,
  from: 'Von',
  to: 'Bis',
  /** Under a custom range's day that is missing or outside its range (its own check: min and max), the days in the admin's format. */
  dayInvalid: (min: string | null, max: string) =>
    min ? `Einen Tag vom ${min} bis zum ${max} angeben.` : `Einen Tag bis zum ${max} angeben.`,
  /** Said (live region) when a custom range is not applied for that day, naming the field. */
  dayFailed: (label: string) => `Nicht angewendet: „${label}“ ist kein gültiger Tag des Zeitraums.`,
  rows: (count: number) => `${n(count)} Einträge`,
};
