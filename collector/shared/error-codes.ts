/**
 * The machine codes of the collector's error answers, `{ "error": text, "code": code }`
 * (docs/collector.md "Errors"): the English text is for people reading the API by hand, the code for
 * programs; the admin app shows its own text for each (collector/admin/i18n). A code stays what it
 * means once published: a new kind of error gets a new code. The visitor calls' own checks
 * (collector/server/visitor: a missing field, an unknown task) answer without one.
 */
export const ERROR_CODES = [
  // the admin area's requests (collector/server/admin/index.ts)
  'signed_out',
  'cross_origin',
  'method_not_allowed',
  'not_found',
  'form_type',
  'app_not_built',
  // a request's body (collector/server/edge/http.ts)
  'body_too_large',
  'request_aborted',
  'body_not_utf8',
  'form_malformed',
  // periods and filters of the reads (collector/server/admin/period.ts, api.ts)
  'day_format',
  'period_unknown',
  'period_range',
  'period_future',
  'filter_count',
  'filter_format',
  'filter_value',
  'table_unknown',
  // the consent log and erasure
  'visitor_pseudonym',
  'consent_id',
  'log_limit',
  // the settings
  'time_zone',
  'setting_missing',
  'retention_range',
  // the stats API's tokens
  'token_name',
  'token_id',
  'token_required',
  'token_rate_limit',
  // any request (collector/server/app.ts)
  'database_unavailable',
  'internal',
] as const;

/** One error answer's code. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Whether an answer's `code` is one this build knows (an older app, a newer collector: it may not be). */
export const isErrorCode = (code: unknown): code is ErrorCode => (ERROR_CODES as readonly unknown[]).includes(code);

/**
 * An error answer's body. `field` names the form field at fault where one is (a setting of
 * `POST /admin/api/settings`, the `name` of `POST /admin/api/tokens`, the `visitor` or `consent` of
 * `POST /admin/api/erase` and of the log's search, `GET /admin/api/consents` and
 * `/admin/consents.csv`): the app marks that input; other answers name none.
 */
export interface ErrorAnswer {
  error: string;
  code?: ErrorCode;
  field?: string;
}
