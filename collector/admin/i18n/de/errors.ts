import type { ErrorCode } from '../../../shared/error-codes';
import { counter } from '../count';

/** A count in German (1.504). */
const n = counter('de');

/** The admin area's German texts for errors: by the collector's code, by HTTP status, for no answer at all. */
export const errors = {
  /** The collector's error answers by their code (collector/shared/error-codes.ts); its English text is never shown. */
  codes: {
    signed_out: 'Die Sitzung ist abgelaufen. Bitte neu anmelden.',
    cross_origin:
      'Der Collector hat die Anfrage als die einer fremden Website abgelehnt. Hinter einem Reverse-Proxy PAGEPULSE_TRUST_PROXY=1 setzen.',
    method_not_allowed: 'Diese Anfrage-Methode ist hier nicht erlaubt.',
    not_found: 'Diese Adresse gibt es im Collector nicht.',
    form_type: 'Die Anfrage muss als Formular gesendet werden.',
    app_not_built: 'Die Verwaltung ist nicht gebaut. Auf dem Server npm run build ausführen.',
    body_too_large: 'Die Anfrage ist zu groß.',
    request_aborted: 'Die Anfrage wurde abgebrochen.',
    body_not_utf8: 'Die Anfrage ist nicht UTF-8-kodiert.',
    form_malformed: 'Die Formulardaten sind fehlerhaft kodiert.',
    day_format: '„Von“ und „Bis“ müssen Tage sein (JJJJ-MM-TT).',
    period_unknown: 'Diesen Zeitraum gibt es nicht. Bitte einen aus der Liste wählen.',
    period_range: '„Von“ darf nicht nach „Bis“ liegen, und ein Zeitraum umfasst höchstens 3.660 Tage.',
    period_future: '„Bis“ darf nicht nach dem heutigen Tag der Website (in ihrer Zeitzone) liegen.',
    filter_count: 'Höchstens 10 Filter gleichzeitig.',
    filter_format: 'Ein Filter in der Adresse ist ungültig. Bitte alle Filter entfernen und neu wählen.',
    filter_value: 'Der Wert eines Filters muss 1 bis 2.048 Zeichen lang sein.',
    table_unknown: 'Diese Tabelle gibt es nicht als CSV.',
    visitor_pseudonym: 'Ein Besucher-Pseudonym hat genau 12 Zeichen aus 0–9 und a–f, z. B. 3f9a0c1b2d4e.',
    consent_id: 'Eine Einwilligungs-ID hat 16 bis 64 Zeichen aus Buchstaben, Ziffern, - und _.',
    log_limit: 'Es lassen sich 1 bis 2.000 Einträge auf einmal laden.',
    time_zone: 'Diese Zeitzone ist unbekannt. Bitte einen IANA-Namen wie Europe/Berlin angeben.',
    setting_missing: 'Es wurde keine Einstellung gesendet.',
    retention_range: 'Jede Frist muss eine ganze Zahl von 1 bis 3.650 Tagen sein.',
    token_name: 'Der Name muss 1 bis 100 Zeichen lang sein, ohne Steuerzeichen.',
    token_id: 'Das ist keine gültige Token-Nummer.',
    token_required: 'Ein gültiges Token ist nötig.',
    token_rate_limit: 'Höchstens 60 Anfragen pro Minute und Token.',
    database_unavailable: 'Die Datenbank ist gerade nicht erreichbar.',
    internal: 'Interner Fehler des Collectors; Einzelheiten stehen im Protokoll des Servers.',
  } satisfies Record<ErrorCode, string>,
  /** No answer at all: offline, the collector down. */
  network: 'Keine Antwort vom Collector. Bitte die Verbindung prüfen und erneut versuchen.',
  forbidden: 'Zugriff verweigert (HTTP 403).',
  tooMany: 'Zu viele Anfragen.',
  server: (status: number) => `Der Server hat einen Fehler gemeldet (HTTP ${status}).`,
  refused: (status: number) => `Die Anfrage wurde abgelehnt (HTTP ${status}).`,
  /** After a 429 or 503 with Retry-After. */
  retryIn: (seconds: number) => (seconds > 0 ? `Bitte in ${n(seconds)} s erneut versuchen.` : 'Bitte erneut versuchen.'),
  unexpected: 'Unerwarteter Fehler der Verwaltung. Bitte die Seite neu laden.',
};
