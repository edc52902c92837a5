import type { errors as de } from '../de/errors';
import { counter } from '../count';

/** A count in English (1,504). */
const n = counter('en');

/** The admin area's English texts for errors, the keys of de/errors.ts: by the collector's code, by HTTP status, for no answer at all. */
export const errors: typeof de = {
  codes: {
    signed_out: 'Your session has ended. Please sign in again.',
    cross_origin:
      'The collector refused the request as one from another site. Behind a reverse proxy, set PAGEPULSE_TRUST_PROXY=1.',
    method_not_allowed: 'This request method is not allowed here.',
    not_found: 'The collector has no such address.',
    form_type: 'The request must be sent as a form.',
    app_not_built: 'The admin app is not built. Run npm run build on the server.',
    body_too_large: 'The request is too large.',
    request_aborted: 'The request was cut off.',
    body_not_utf8: 'The request is not encoded as UTF-8.',
    form_malformed: 'The form data is not encoded correctly.',
    day_format: '"From" and "to" must be days (YYYY-MM-DD).',
    period_unknown: 'There is no such period. Choose one from the list.',
    period_range: '"From" must not be after "to", and a range is at most 3,660 days.',
    period_future: '"To" must not be after today on the site\'s clock (its time zone).',
    filter_count: 'At most 10 filters at once.',
    filter_format: 'A filter in the address is not valid. Remove all filters and choose again.',
    filter_value: "A filter's value must be 1 to 2,048 characters.",
    table_unknown: 'There is no such table to export.',
    visitor_pseudonym: 'A visitor pseudonym is exactly 12 characters of 0–9 and a–f, such as 3f9a0c1b2d4e.',
    consent_id: 'A consent ID is 16 to 64 characters of letters, digits, - and _.',
    log_limit: 'From 1 to 2,000 entries can be loaded at once.',
    time_zone: 'This time zone is unknown. Give an IANA name such as Europe/Berlin.',
    setting_missing: 'No setting was sent.',
    retention_range: 'Each period must be a whole number of days from 1 to 3,650.',
    token_name: 'The name must be 1 to 100 characters, without control characters.',
    token_id: 'That is not a valid token number.',
    token_required: 'A valid token is required.',
    token_rate_limit: 'At most 60 requests a minute per token.',
    database_unavailable: 'The database cannot be reached just now.',
    internal: 'Internal error of the collector; its log has the details.',
  },
  network: 'No answer from the collector. Check the connection and try again.',
  forbidden: 'Access refused (HTTP 403).',
  tooMany: 'Too many requests.',
  server: (status: number) => `The server reported an error (HTTP ${status}).`,
  refused: (status: number) => `The request was refused (HTTP ${status}).`,
  retryIn: (seconds: number) => (seconds > 0 ? `Try again in ${n(seconds)} s.` : 'Try again.'),
  unexpected: 'Unexpected error of the admin app. Reload the page.',
};
