import type { IncomingMessage, ServerResponse } from 'node:http';
import { startOfDay } from '../calendar';
import { HttpError } from '../edge/http';
import type { ConsentEntry, ConsentFilter, Store } from '../store';
import { CSV_HEADER, csvLine } from './csv';
import { parseDay, type Period } from './period';

/**
 * The consent log of the admin API (api.ts): its filter from a request's parameters, an entry of its
 * JSON answer, and the consent CSV.
 */

/** A pseudonym is the first 12 hex characters of the session's SHA-256 (visitor/session.ts). */
export const PSEUDONYM = /^[0-9a-f]{12}$/;
/** A consent ID as the visitor tasks store it (visitor/tasks.ts). */
export const CONSENT_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The pseudonym of a stored session: its first 12 hex characters. */
const pseudonymOf = (session: string) => session.slice(0, 12);

/** What the consent log needs (the API's dependencies, and its period of a read). */
interface ConsentLogDeps {
  store: Store;
  now: () => number;
  timeZone: () => Promise<string>;
  /** The period a read asks for, in the site's time zone. */
  period: (params: URLSearchParams) => Promise<Period>;
  /** Sent with every error answer (the admin area's headers). */
  headers: Record<string, string>;
}

/** The consent log's filter, JSON entries and CSV export. */
export function consentLog({ store, now, timeZone, period, headers: ADMIN_HEADERS }: ConsentLogDeps) {
  /**
   * The consent log's filter: the period's range when `period` is given (the app's picker), else
   * `from`/`to` as days in the site's time zone (either may be left out); and a pseudonym
   * (`visitor`) or a consent ID (`consent`); a wrong one names that parameter, the search form's
   * field (`field`), so the app marks its input.
   */
  async function consentFilter(params: URLSearchParams): Promise<ConsentFilter> {
    const visitor = params.get('visitor')?.trim().toLowerCase() || null;
    if (visitor !== null && !PSEUDONYM.test(visitor))
      throw new HttpError(400, 'visitor must be a 12-character pseudonym', ADMIN_HEADERS, 'visitor_pseudonym', 'visitor');
    const consentId = params.get('consent')?.trim() || null;
    if (consentId !== null && !CONSENT_ID.test(consentId))
      throw new HttpError(400, 'consent must be a consent ID', ADMIN_HEADERS, 'consent_id', 'consent');
    if (params.get('period')) {
      const { start, end } = (await period(params)).current;
      return { from: start, to: end, visitor, consentId };
    }
    const zone = await timeZone();
    const day = (name: string, after: number): number | null => {
      const value = params.get(name)?.trim();
      if (!value) return null;
      const { y, m, d } = parseDay(value, name, ADMIN_HEADERS);
      return startOfDay(zone, { y, m, d: d + after });
    };
    return { from: day('from', 0) ?? 0, to: day('to', 1) ?? Number.MAX_SAFE_INTEGER, visitor, consentId };
  }

  const logEntry = (row: ConsentEntry) => ({
    kind: row.kind,
    id: row.id,
    at: new Date(row.at).toISOString(),
    visitor: pseudonymOf(row.session),
    consentId: row.consentId,
    category: row.category,
    granted: row.granted,
    userAgent: row.userAgent,
    url: row.url,
    formId: row.formId,
    formName: row.formName,
    fields: row.fields,
    deletedAt: row.deletedAt === null ? null : new Date(row.deletedAt).toISOString(),
  });

  /**
   * The consent CSV, streamed: a page of records at a time from the readers' side, each written
   * when the connection has taken the one before (so a slow download holds one page in memory, and
   * heartbeats are answered between pages).
   */
  async function exportCsv(req: IncomingMessage, res: ServerResponse, params: URLSearchParams): Promise<void> {
    const filter = await consentFilter(params);
    res.writeHead(200, {
      ...ADMIN_HEADERS,
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="pagepulse-consents-${new Date(now()).toISOString().slice(0, 10)}.csv"`,
    });
    if (req.method === 'HEAD') return void res.end();
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    const write = async (text: string) => {
      if (!res.write(text)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    };
    const zone = await timeZone();
    await write(CSV_HEADER);
    for await (const page of store.consents.log(filter)) {
      if (res.destroyed) return;
      await write(page.map((row) => csvLine(row, pseudonymOf(row.session), zone)).join(''));
    }
    res.end();
  }

  return { consentFilter, logEntry, exportCsv };
}
