/** Joomla's session token: 32 hexadecimal characters. */
const TOKEN_PATTERN = /^[0-9a-f]{32}$/i;
/** The platform's generic e-mail check (Joomla's email rule): a local part, @, a dotted domain. */
const EMAIL_PATTERN = /^[\w.!#$%&'*+/=?^`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** True for a 32-hex session token. */
export function isSessionToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}

/** True for a plausible e-mail address (at most 254 characters). */
export function isEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 254 && EMAIL_PATTERN.test(value);
}
