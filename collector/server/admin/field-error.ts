import type { ErrorAnswer, ErrorCode } from '../../shared/error-codes';
import { HttpError } from '../edge/http';

/**
 * A 400 for one field of an admin form (`{"error", "code", "field"}`, docs/collector.md "Errors"):
 * the field's name as the form sends it, so the app can mark that input and put its focus there
 * instead of saying only that some value was wrong.
 */
export class FieldError extends HttpError {
  constructor(
    message: string,
    headers: Record<string, string>,
    code: ErrorCode,
    /** The form field at fault (`consentRetentionDays`, `timeZone`). */
    readonly field: string,
  ) {
    super(400, message, headers, code);
  }
}

/**
 * The answer of a FieldError. Sent by the admin's write route itself: edge/errors.ts answers every
 * other error with `{error, code}` and knows nothing of forms.
 */
export const fieldAnswer = (error: FieldError): ErrorAnswer => ({ error: error.message, code: error.code, field: error.field });
