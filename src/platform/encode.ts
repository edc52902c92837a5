/** One form field: null and undefined are sent as an empty value, as jQuery does. */
export type FormValue = string | number | boolean | null | undefined;

/**
 * Form-encode fields exactly as jQuery 1.12's `$.param` (the one Joomla 3 ships): every key and
 * value through encodeURIComponent, `%20` turned into `+`. URLSearchParams would also escape
 * `( ) ! ' * ~` and so differ byte for byte from what the Joomla components were written against.
 */
export function encodeForm(fields: ReadonlyArray<readonly [string, FormValue]>): string {
  return fields.map(([key, value]) => `${encodePart(key)}=${encodePart(value == null ? '' : String(value))}`).join('&');
}

function encodePart(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}
