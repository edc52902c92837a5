import { isoInZone } from '../calendar';
import type { ConsentEntry } from '../store';

/** CSV columns of the consent log export, in order. */
export const CSV_COLUMNS = [
  'time',
  'pseudonym',
  'consent_id',
  'kind',
  'category',
  'choice',
  'user_agent',
  'url',
  'form',
  'fields',
  'deleted_at',
] as const;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, semicolon, tab, quote or line break, quotes
 * doubled. A cell starting with = + - @ (or tab/CR) gets a leading apostrophe, so a spreadsheet shows
 * the visitor's text instead of running it as a formula (OWASP "CSV injection"). The semicolon: a
 * German Excel opens a `.csv` with its list separator `;`, and an unquoted `curl;=1+1` was two cells
 * there, the second a formula.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * One record as a CSV line (CRLF at the end, as Excel expects); `pseudonym` is what the log shows of
 * its session; times on the site's clock (`timeZone`) with their offset, as the views show them.
 */
export function csvLine(row: ConsentEntry, pseudonym: string, timeZone: string): string {
  const choice = row.kind === 'form' ? 'given' : row.granted ? 'allow' : 'deny';
  const fields = row.fields
    ? Object.entries(row.fields)
        .map(([label, value]) => `${label}: ${value}`)
        .join('; ')
    : '';
  const cells = [
    isoInZone(timeZone, row.at),
    pseudonym,
    row.consentId ?? '',
    row.kind,
    row.category === null ? '' : String(row.category),
    choice,
    row.userAgent,
    row.url ?? '',
    row.kind === 'form' ? row.formId || row.formName || '' : '',
    fields,
    row.deletedAt === null ? '' : isoInZone(timeZone, row.deletedAt),
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The header line, after a byte order mark: Excel reads the form fields' and user agents' umlauts right (as traffic.csv). */
export const CSV_HEADER = `\ufeff${CSV_COLUMNS.join(',')}\r\n`;
