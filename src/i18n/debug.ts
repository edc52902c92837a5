// A leaf of its own, importing nothing: only the debug box reads these, and in the lite build the
// debug box is a QA file (pagepulse.debug.lite.js), so its texts stay out of every visitor's bundle.

/** The debug box's own texts, German (default) and English. */
export const DEBUG_TEXTS = {
  de: { region: 'PagePulse-Debug', close: 'Debug-Meldungen schließen', earlier: 'Frühere Meldungen: %s' },
  en: { region: 'PagePulse debug', close: 'Close debug messages', earlier: 'Earlier messages: %s' },
};
