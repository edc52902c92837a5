import { describe, expect, it, vi } from 'vitest';
import { createAnnouncer } from '../../collector/admin/announcer';
import { ApiError, retryAfterSeconds } from '../../collector/admin/api';
import { errorText } from '../../collector/admin/errors';
import { MESSAGES } from '../../collector/admin/i18n';
import { ERROR_CODES } from '../../collector/shared/error-codes';

const { de, en } = MESSAGES;

describe("the admin app's error texts", () => {
  it("says a code's own text in the admin's language, never the collector's English", () => {
    const error = new ApiError(400, 'visitRetentionDays must be 1 to 3650', 'retention_range');
    expect(errorText(de, error)).toBe('Jede Frist muss eine ganze Zahl von 1 bis 3.650 Tagen sein.');
    expect(errorText(en, error)).toBe('Each period must be a whole number of days from 1 to 3,650.');
  });

  it('has a text for every code in both languages, each its own', () => {
    for (const t of [de, en]) {
      const texts = ERROR_CODES.map((code) => errorText(t, new ApiError(400, 'english', code)));
      expect(texts.every((text) => text !== '' && text !== 'english')).toBe(true);
      expect(new Set(texts).size).toBe(ERROR_CODES.length);
    }
  });

  it('falls back to the status without a code: signed out, refused, too large, too many, a server error', () => {
    const said = (status: number, retryAfter: number | null = null) => errorText(de, new ApiError(status, 'x', null, retryAfter));
    expect(said(401)).toBe('Die Sitzung ist abgelaufen. Bitte neu anmelden.');
    expect(said(403)).toBe('Zugriff verweigert (HTTP 403).');
    expect(said(413)).toBe('Die Anfrage ist zu groß.');
    expect(said(429, 30)).toBe('Zu viele Anfragen. Bitte in 30 s erneut versuchen.');
    expect(said(429)).toBe('Zu viele Anfragen.');
    expect(said(502)).toBe('Der Server hat einen Fehler gemeldet (HTTP 502).');
    expect(said(503, 0)).toBe('Der Server hat einen Fehler gemeldet (HTTP 503). Bitte erneut versuchen.');
    expect(said(418)).toBe('Die Anfrage wurde abgelehnt (HTTP 418).');
  });

  it('says no answer (status 0) as a connection problem, and an error of the app as its own', () => {
    expect(errorText(de, new ApiError(0, 'Failed to fetch'))).toBe(
      'Keine Antwort vom Collector. Bitte die Verbindung prüfen und erneut versuchen.',
    );
    expect(errorText(en, new TypeError("Cannot read properties of null (reading 'consents')"))).toBe(
      'Unexpected error of the admin app. Reload the page.',
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-05-20T10:00:00Z');
    expect(retryAfterSeconds('5', now)).toBe(5);
    expect(retryAfterSeconds('Tue, 20 May 2025 10:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Tue, 20 May 2025 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });
});

describe("the app's announcer (its one live region's store)", () => {
  it('gives each announcement a new id, so one text twice is read twice', () => {
    const announcer = createAnnouncer();
    const heard = vi.fn();
    const stop = announcer.subscribe(heard);
    announcer.announce('Gespeichert.');
    const first = announcer.current();
    announcer.announce('Gespeichert.');
    expect(announcer.current()).toEqual({ id: first.id + 1, text: 'Gespeichert.' });
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    announcer.announce('Gespeichert.');
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it('clears once for another view, and not again when nothing is said', () => {
    const announcer = createAnnouncer();
    const heard = vi.fn();
    announcer.subscribe(heard);
    announcer.clear();
    expect(heard).not.toHaveBeenCalled();
    announcer.announce('3 Datensätze gelöscht.');
    announcer.clear();
    expect(announcer.current().text).toBe('');
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
