/** The part of Storage the consent code uses. */
export type SafeStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * A storage that may be missing or throw on access (privacy modes, sandboxed frames), looked up on
 * first use: the first localStorage access opens the store, milliseconds a first visit's banner
 * does not wait for. `readItem` and `writeItem` catch what a missing one throws.
 */
export function guardedStorage(get: () => SafeStorage): SafeStorage {
  let storage: SafeStorage | undefined;
  const use = (): SafeStorage => (storage ??= get());
  return {
    getItem: (key) => use().getItem(key),
    setItem: (key, value) => use().setItem(key, value),
    removeItem: (key) => use().removeItem(key),
  };
}

/** One stored value, or null when there is none or the storage refuses. */
export function readItem(storage: SafeStorage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Store a value, or remove it (null); a full or forbidden storage keeps nothing, silently. */
export function writeItem(storage: SafeStorage | null, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // storage full or forbidden: the value lives only as long as this page
  }
}
