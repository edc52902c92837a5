/**
 * What the app says to screen readers when an action is done (saved, erased, revoked) or failed: one
 * store for the whole app, read by the shell's one live region (components/LiveRegion.tsx), so views
 * announce through it instead of each keeping a region of its own. React-free: a view only calls
 * `announce`.
 */

/** One announcement; `id` counts them, so the same text said twice (two saves) is read twice. */
export interface Announcement {
  id: number;
  text: string;
}

/** The store: the latest announcement, `announce` a new one, `clear` it, `subscribe` to both. */
export interface Announcer {
  announce(text: string): void;
  clear(): void;
  current(): Announcement;
  subscribe(listener: () => void): () => void;
}

/** Says a text to screen readers: what a view gets of the store. */
export type Announce = Announcer['announce'];

/** A store with nothing to say yet. */
export function createAnnouncer(): Announcer {
  let current: Announcement = { id: 0, text: '' };
  const listeners = new Set<() => void>();
  const set = (text: string) => {
    current = { id: current.id + 1, text };
    for (const listener of listeners) listener();
  };
  return {
    announce: set,
    // another view: its result is no longer what the page says (read again when browsing it)
    clear() {
      if (current.text !== '') set('');
    },
    current: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
