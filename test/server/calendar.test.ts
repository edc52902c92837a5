import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { isoInZone } from '../../collector/server/calendar';

/**
 * The zone's wall clock at `ms` from another of Intl's paths (Swedish dates read `2025-03-30
 * 03:00:00`), and the offset from it: what isoInZone must show.
 */
function reference(timeZone: string, ms: number): string {
  const wall = new Date(ms).toLocaleString('sv-SE', { timeZone });
  const [y, mo, d, h, mi, s] = wall.split(/[- :]/).map(Number) as [number, number, number, number, number, number];
  const offset = Math.round((Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000) / 60_000);
  const abs = Math.abs(offset);
  const two = (v: number) => String(v).padStart(2, '0');
  return `${wall.replace(' ', 'T')}${offset < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

// zones with daylight saving on the hour, at half past (Lord Howe: 30 minutes of it), at odd offsets
// (Kathmandu +05:45, Chatham +12:45/+13:45, St John's -03:30) and the southern hemisphere
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Santiago',
  'Africa/Casablanca',
];

/**
 * The two comparisons below ask Intl about 45,000 times (5.8 and 3.2 s on a quiet 2-core machine);
 * with the machine loaded (load 8, a helper's run, 2026-11-28) the first passed the project's 20 s.
 * CPU work that is right at any speed: a bound of its own, not a flaky one.
 */
const INTL_HEAVY = { timeout: 60_000 };

describe('isoInZone (the consent CSV and the log: the site clock, two Intl calls per day of data)', () => {
  it('shows what Intl shows for every minute around each offset change of 2025 in nine zones', INTL_HEAVY, () => {
    const start = Date.UTC(2025, 0, 1);
    const end = Date.UTC(2026, 0, 1);
    let checked = 0;
    let changes = 0;
    for (const zone of ZONES) {
      // find the changes an hour apart, then every minute (and odd seconds) of the two hours around each
      let previous = reference(zone, start).slice(-6);
      for (let hour = start; hour < end; hour += 3_600_000) {
        const offset = reference(zone, hour).slice(-6);
        if (offset === previous) continue;
        previous = offset;
        changes++;
        for (let ms = hour - 7_200_000; ms < hour + 3_600_000; ms += 60_000 + 7) {
          expect(isoInZone(zone, ms), `${zone} at ${new Date(ms).toISOString()}`).toBe(reference(zone, ms));
          checked++;
        }
      }
    }
    // every zone but three (UTC, Kathmandu, and Casablanca's Ramadan change aside) has two a year
    expect(changes).toBeGreaterThanOrEqual(12);
    expect(checked).toBeGreaterThan(changes * 170);
  });

  it('shows what Intl shows at random instants from 1900 to 2100, newest first as an export reads them', INTL_HEAVY, () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const instants = Array.from({ length: 3000 }, () =>
      Math.round(Date.UTC(1900, 0, 1) + random() * 200 * 365.25 * 86_400_000),
    ).sort((a, b) => b - a);
    for (const zone of ZONES)
      for (const ms of instants) expect(isoInZone(zone, ms), `${zone} at ${ms}`).toBe(reference(zone, ms));
  });

  it('an export of a small site (a row every 53 minutes of a year), two at once: Intl asked per day of data, not per row', () => {
    // a zone no other test here asks for: its days are not known yet
    const zone = 'Europe/Lisbon';
    const start = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: 10_000 }, (_, i) => start + i * 3_153_600);
    const calls = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    onTestFinished(() => calls.mockRestore());
    // the CSV and the log of the same records, newest first, row by row in turn
    for (let i = rows.length - 1; i >= 0; i--)
      for (let twice = 0; twice < 2; twice++) {
        const shown = isoInZone(zone, rows[i]!);
        if (i % 10 === 0) expect(shown, `${rows[i]}`).toBe(reference(zone, rows[i]!));
      }
    // two calls for each of the 365 days, and for each hour of the two days of a change (96); the
    // reference's toLocaleString does not call formatToParts. Per row it was 17,520
    expect(calls.mock.calls.length).toBeLessThan(900);
    expect(calls.mock.calls.length).toBeGreaterThanOrEqual(730);
  });

  it('keeps the seconds of a local mean time offset out of the shown offset but in the wall clock (Berlin, 1890)', () => {
    // Berlin's mean time was +00:53:28: the wall clock moves by it, the shown offset is rounded to minutes
    expect(isoInZone('Europe/Berlin', Date.UTC(1890, 5, 1, 12, 0, 0))).toBe(
      reference('Europe/Berlin', Date.UTC(1890, 5, 1, 12, 0, 0)),
    );
    expect(isoInZone('Europe/Berlin', Date.UTC(1890, 5, 1, 12, 0, 0))).toBe('1890-06-01T12:53:28+00:53');
  });
});
