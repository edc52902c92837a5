import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, sendJson } from './http';
import type { ErrorAnswer } from '../../shared/error-codes';
import { RETRY_AFTER_S, databaseUnavailable } from './log';

/**
 * The answer to a request whose handling threw: an HttpError as it says; a database that cannot be
 * reached 503 with Retry-After; anything else 500. Each answer carries its machine code beside the
 * English text (collector/shared/error-codes.ts). What is not an HttpError is reported with the
 * request's method and path; an answer already begun is cut.
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  report: (error: unknown, context?: string) => void,
): void {
  const unavailable = !(error instanceof HttpError) && databaseUnavailable(error);
  if (!(error instanceof HttpError)) report(error, `${req.method} ${req.url?.split('?')[0]}`);
  if (res.headersSent) return void res.destroy();
  const { status, message, headers, code, field } =
    error instanceof HttpError
      ? error
      : unavailable
        ? new HttpError(503, 'database unavailable, try again', { 'retry-after': String(RETRY_AFTER_S) }, 'database_unavailable')
        : new HttpError(500, 'internal error', {}, 'internal');
  const answer: ErrorAnswer = code ? { error: message, code } : { error: message };
  sendJson(res, status, field ? { ...answer, field } : answer, headers);
}
