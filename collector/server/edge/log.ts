/**
 * What a failure becomes at the edge: its answer and its line in the log. A database that is gone
 * (PostgreSQL stopped, a connection refused or cut, SQLite busy or its disk full) is no fault of the
 * request: 503 with Retry-After, which the bundle treats as transient, and ONE line naming the
 * cause, not a stack trace per error. The same line again within a window is counted instead of
 * printed; the next one says how many it stood for.
 */

/** Codes of a database that cannot be reached or cannot write now (node's socket errors, PostgreSQL's SQLSTATE, SQLite's). */
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
  '53100', // disk_full
  'SQLITE_BUSY',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
]);
/** pg's own words for a connection that went away, which carry no code. */
const UNAVAILABLE_TEXT = /Connection terminated|connection error|timeout exceeded when trying to connect|the store is closed/i;
/** Seconds a client is told to wait when the database is unavailable. */
export const RETRY_AFTER_S = 5;
/** An identical line within this long is counted, not printed again. */
const REPEAT_WINDOW_MS = 10_000;

/** The first error of an AggregateError (pg's connect to `localhost` tries ::1 and 127.0.0.1), else the error. */
function rootOf(error: unknown): unknown {
  return error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
}

/** Whether an error says the database is unavailable (not a fault of ours or of the request). */
export function databaseUnavailable(error: unknown): boolean {
  const root = rootOf(error) as { code?: unknown; message?: unknown } | null;
  if (!root || typeof root !== 'object') return false;
  return (typeof root.code === 'string' && UNAVAILABLE.has(root.code)) || UNAVAILABLE_TEXT.test(String(root.message ?? ''));
}

/** One line about an error: its code and message, no stack. */
export function oneLine(error: unknown): string {
  const root = rootOf(error) as { code?: unknown; message?: unknown } | null;
  if (!root || typeof root !== 'object') return String(root);
  const code = typeof root.code === 'string' ? root.code : '';
  const message = String(root.message ?? root).replace(/\s+/g, ' ');
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

/**
 * A reporter of failures: `report(error, context)` writes one line (`context` names the request), a
 * stack trace only for what is neither the database's absence nor ours to explain otherwise (a bug),
 * and an identical line within REPEAT_WINDOW_MS only as a count on the next.
 */
export function createReporter(write: (text: string) => void, clock: () => number = Date.now) {
  const seen = new Map<string, { at: number; more: number }>();
  return (error: unknown, context = ''): void => {
    const unavailable = databaseUnavailable(error);
    const what = unavailable ? `database unavailable (${oneLine(error)})` : oneLine(error);
    const line = `[collector] ${context ? `${context}: ` : ''}${what}`;
    const now = clock();
    const last = seen.get(line);
    if (last && now - last.at < REPEAT_WINDOW_MS) {
      last.more++;
      return;
    }
    if (seen.size > 100) seen.clear();
    seen.set(line, { at: now, more: 0 });
    const suffix = last?.more ? ` (and ${last.more} more like it in the last ${REPEAT_WINDOW_MS / 1000} s)` : '';
    const stack = !unavailable && error instanceof Error && error.stack ? `\n${error.stack.split('\n').slice(1).join('\n')}` : '';
    write(`${line}${suffix}${stack}`);
  };
}
