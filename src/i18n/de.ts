/** German texts (the site's first language). Keys are shared with en.ts. */
export const de = {
  streamTitle: 'Datenstream (Client)',
  streamNetworkError: 'Netzwerkfehler beim Datenstream: ',
  streamBadAnswer: 'Unerwartete Antwort des Datenstreams: ',
  streamStopped: 'Datenstream beendet: ',
  heatmapTitle: 'Heatmap (Client)',
  heatmapNetworkError: 'Netzwerkfehler beim Speichern des Klicks: ',
  debugRegion: 'PagePulse-Debug',
  close: 'Schließen',
  closeDebug: 'Debug-Meldungen schließen',
  notifyRegion: 'Benachrichtigungen',
  // Joomla's JLIB_JS_AJAX_ERROR_* in German
  ajaxParse: 'Bei der Verarbeitung der folgenden JSON-Daten ist ein Parser-Fehler aufgetreten: %s',
  ajaxNoContent: 'Es wurde kein Inhalt zurückgegeben.',
  ajaxTimeout: 'Die Zeit für die Verarbeitung der Anfrage beim Server ist abgelaufen.',
  ajaxAbort: 'Die Verbindung wurde abgebrochen.',
  ajaxOther: 'Beim Abrufen der JSON-Daten ist ein Fehler aufgetreten: HTTP-Statuscode %s.',
  ajaxOtherMessage: 'Beim Abrufen der JSON-Daten ist ein Fehler aufgetreten: HTTP-Statuscode %s. %m',
  error: 'Fehler',
  // consent
  consentTitle: 'Cookie-Einstellungen',
  consentText:
    'Wir verwenden Cookies, damit diese Website zuverlässig funktioniert, Ihre Einstellungen gespeichert bleiben und wir die Nutzung auswerten können. Sie entscheiden, welche Kategorien Sie zulassen.',
  consentDecline: 'Ablehnen',
  consentSave: 'Auswahl speichern',
  consentAcceptAll: 'Alle akzeptieren',
  consentPrivacy: 'Datenschutzerklärung',
  consentCookiePolicy: 'Cookie-Richtlinie',
  consentRevoke: 'Cookie-Einstellungen',
  consentCategories: 'Cookie-Kategorien',
  consentDetails: 'Details zu %s',
  consentLoading: 'Beschreibung wird geladen …',
  consentLoadError: 'Die Beschreibung konnte nicht geladen werden.',
  consentDenyMessage:
    'Sie haben Cookies abgelehnt. Damit diese Website bestmöglich funktioniert, stimmen Sie der Verwendung von Cookies bitte zu.',
  consentLocked: 'immer aktiv',
  category1: 'Notwendig',
  category2: 'Präferenzen',
  category3: 'Statistiken',
  category4: 'Marketing',
  placeholder: 'Um diesen Inhalt zu sehen, müssen Cookies akzeptiert und die Seite neu geladen werden.',
  placeholderDomain: 'Um Inhalte von %s zu sehen, müssen Cookies akzeptiert und die Seite neu geladen werden.',
  consentServices: 'Dienste',
  placeholderService: 'Inhalt von %s',
  placeholderOnce: 'Einmal laden',
  placeholderAlways: 'Immer erlauben: %s',
  placeholderButton: 'Cookie-Einstellungen öffnen',
  scriptLoadError: 'Skript konnte nicht geladen werden: %s (%m)',
  consentCallTitle: 'Cookie-Einwilligung (Client)',
  consentLogRefused:
    'Das Einwilligungsprotokoll fehlt auf dem Server (HTTP %s): Einträge werden verworfen, nicht erneut gesendet.',
  keepaliveTitle: 'Sitzung (Client)',
};

/** The shape every language table has. */
export type Messages = Record<keyof typeof de, string>;
