import { ApiError } from './api';
import type { Messages } from './i18n';

/**
 * What went wrong, in the admin's language: the text for the answer's code, else for its status
 * (a proxy's 413 or 502 has no code, an older collector sends none), or for no answer at all.
 * The collector's English `message` is never shown: it is for people reading the API by hand.
 */
export function errorText(t: Messages, error: unknown): string {
  const e = t.errors;
  // not the API's: a fault of this app (an answer of an unexpected shape)
  if (!(error instanceof ApiError)) return e.unexpected;
  if (error.status === 0) return e.network;
  const wait = error.retryAfter === null ? '' : ` ${e.retryIn(error.retryAfter)}`;
  if (error.code !== null) return e.codes[error.code] + wait;
  const { status } = error;
  if (status === 401) return e.codes.signed_out;
  if (status === 403) return e.forbidden;
  if (status === 413) return e.codes.body_too_large;
  if (status === 429) return e.tooMany + wait;
  if (status >= 500) return e.server(status) + wait;
  return e.refused(status);
}
