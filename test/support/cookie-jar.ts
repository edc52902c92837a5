import type { CookieJar } from '../../src/platform/cookies';

/** A cookie jar over a plain record, for the unit suites: `remove` deletes, `names` lists what is set. */
export function memoryJar(data: Record<string, string> = {}): CookieJar & { data: Record<string, string> } {
  return {
    data,
    get: (name) => data[name] ?? null,
    set: (name, value) => void (data[name] = value),
    names: () => Object.keys(data),
    remove: (name) => void delete data[name],
  };
}
