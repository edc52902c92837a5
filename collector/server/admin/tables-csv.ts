import { FILTERS, type Traffic } from '../../shared/admin-api';
import { HttpError } from '../edge/http';
import { csvCell } from './csv';

/**
 * The overview's tables as CSV (`/admin/traffic.csv?table=<name>` with the view's period and
 * filters): each breakdown as it shows it (its label, the period's figure, the previous one's; the
 * pages with time on page), the chart's values per bucket, and the key figures. Bounded: a
 * breakdown has at most 20 rows, the chart at most 62. UTF-8 with a byte order mark, so that Excel
 * reads page addresses with umlauts and the labels `600–1023`, `≥ 1440` right (LibreOffice and
 * most CSV readers skip it); CRLF; cells starting with = + - @ prefixed with an apostrophe.
 */

/** The tables: the breakdowns (by their answer key), `series` and `summary`. */
export const CSV_TABLES = ['summary', 'series', ...new Set(Object.values(FILTERS))] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

const line = (cells: ReadonlyArray<string | number>) => `${cells.map((c) => csvCell(String(c))).join(',')}\r\n`;

/** The table named `table` of one traffic answer as CSV text (with BOM). */
export function trafficCsv(traffic: Traffic, table: string, headers?: Record<string, string>): string {
  if (!(CSV_TABLES as readonly string[]).includes(table))
    throw new HttpError(400, `table must be one of ${CSV_TABLES.join(', ')}`, headers, 'table_unknown');
  const zone = traffic.period.timeZone;
  const lines: string[] = [];
  if (table === 'summary') {
    lines.push(line(['figure', 'current', 'previous']));
    for (const [name, value] of Object.entries(traffic.summary)) lines.push(line([name, value.current, value.previous]));
  } else if (table === 'series') {
    const unit = traffic.period.unit;
    lines.push(line([`${unit} (${zone})`, 'page_views', 'visitors', `previous_${unit}`, 'previous_page_views']));
    for (const s of traffic.series) lines.push(line([s.label, s.views, s.visitors, s.previousLabel ?? '', s.previousViews]));
  } else if (table === 'pages') {
    lines.push(line(['page', 'page_views', 'previous', 'time_on_page_s']));
    for (const r of traffic.pages) lines.push(line([r.label, r.current, r.previous, Math.round(r.timeOnPage / 1000)]));
  } else {
    const rows = traffic[table as Exclude<CsvTable, 'summary' | 'series' | 'pages'>];
    const name = Object.entries(FILTERS).find(([, key]) => key === table)![0];
    lines.push(line([name, 'current', 'previous']));
    for (const r of rows) lines.push(line([r.label, r.current, r.previous]));
  }
  return `\ufeff${lines.join('')}`;
}
