import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../../shared/error-codes';

/** Largest request body accepted: every PagePulse call is well under 1 KiB, a form consent a few KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * After a 413, bytes still read and dropped before the socket is cut: a client that is still
 * sending gets to read the answer instead of a reset, and an endless body cannot hold us.
 */
const MAX_DRAIN_BYTES = 1024 * 1024;

/**
 * An error with an HTTP status, answered as `{ "error": message }`, with `"code": code` when given
 * (the admin app shows its own text for a code; collector/shared/error-codes.ts) and `"field": field`
 * when one field of a form is at fault (`consentRetentionDays`, `timeZone`, a token's `name`, an
 * erasure's or the consent log search's `visitor` or `consent`: the app marks that input and puts
 * its focus there).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly code?: ErrorCode,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Answer JSON, never cached: every answer of the collector is live data. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

/** Answer a text body of the given type, never cached. */
export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/**
 * The request body as UTF-8 text, at most `limit` bytes. Past the limit it rejects with 413 at
 * once and keeps draining (up to MAX_DRAIN_BYTES more) so the 413 can still be read.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    // made when needed: an Error captures a stack trace, which every heartbeat paid for (44 µs)
    const tooLarge = () => new HttpError(413, 'body too large', { connection: 'close' }, 'body_too_large');
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers['content-length']) > limit;
    if (over) reject(tooLarge());
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > limit + MAX_DRAIN_BYTES) req.socket.destroy();
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    // the client closed the connection mid-body: an ordinary event, answered (if still possible)
    // as a 400 and never reported as a failure of ours (no stack trace in the log)
    req.on('error', () => reject(new HttpError(400, 'request aborted', {}, 'request_aborted')));
    req.on('end', () => {
      if (over) return;
      try {
        resolve(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        reject(new HttpError(400, 'body is not UTF-8', {}, 'body_not_utf8'));
      }
    });
  });
}

/**
 * Parse a form-encoded body. URLSearchParams silently keeps a broken `%` escape as text; a
 * browser's encodeURIComponent never produces one, so such a body is refused as malformed.
 */
export function parseForm(body: string): URLSearchParams {
  for (const pair of body.split('&')) {
    try {
      decodeURIComponent(pair.replace(/\+/g, ' '));
    } catch {
      throw new HttpError(400, 'malformed form body', {}, 'form_malformed');
    }
  }
  return new URLSearchParams(body);
}

/** Whether a request declares a form-encoded body (the only kind the Joomla components read). */
export function isFormEncoded(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}
