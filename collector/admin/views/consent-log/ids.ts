/** A visitor's pseudonym as the collector makes it (12 hex digits; searched in lower case). */
export const PSEUDONYM = '[0-9a-fA-F]{12}';
/** A consent ID as the bundle makes it (16 to 64 base64url characters; the collector checks the rest). */
export const CONSENT_ID = '[A-Za-z0-9_\\-]{16,64}';
