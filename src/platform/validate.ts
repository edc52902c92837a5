/** Joomla's session token: 32 hexadecimal characters. */
const TOKEN_PATTERN = /^[0-9a-f]{32}$/i;

/** True for a 32-hex session token. */
export function isSessionToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}
