import type { OnError } from './guard';
import { createStore, type Store } from './store';

/** Most messages kept: a long session with a failing server must not grow the DOM without end. */
export const MAX_DEBUG_MESSAGES = 50;

/** One debug message; both parts are shown as text, never as HTML. */
export interface DebugMessage {
  id: number;
  title: string;
  text: string;
  /** How often it came: a message repeated is one line with a count. */
  count: number;
}

/** What the debug box shows. */
export interface DebugState {
  /** Debug is on (config, server's enable_debug, PagePulse.debug(true)). */
  enabled: boolean;
  /** The visitor closed the box; a new message opens it again, a repeated one does not. */
  closed: boolean;
  /** Distinct messages, the most recent last (a repeat moves its line to the end). */
  messages: DebugMessage[];
}

/** The React-free debug store: features write messages, the debug box (ui/debug) renders them. */
export interface DebugStore extends Pick<Store<DebugState>, 'get' | 'subscribe'> {
  /** Add a message; kept even while debug is off, so turning it on later shows what happened. */
  add(title: string, text: string): void;
  setEnabled(on: boolean): void;
  close(): void;
}

/** Create the debug store; a throwing subscriber is reported to `onError`. */
export function createDebugStore(enabled: boolean, onError: OnError): DebugStore {
  const store = createStore<DebugState>({ enabled, closed: false, messages: [] }, onError);
  let nextId = 1;
  return {
    get: store.get,
    subscribe: store.subscribe,
    add(title, text) {
      store.set((s) => {
        const same = s.messages.find((m) => m.title === title && m.text === text);
        return {
          ...s,
          closed: s.closed && !!same,
          messages: [
            ...s.messages.filter((m) => m !== same),
            same ? { ...same, count: same.count + 1 } : { id: nextId++, title, text, count: 1 },
          ].slice(-MAX_DEBUG_MESSAGES),
        };
      });
    },
    setEnabled(on) {
      store.set((s) => (s.enabled === on ? s : { ...s, enabled: on, closed: false }));
    },
    close() {
      // the messages stay: a repeat of one of them is counted without opening the box again
      store.set((s) => ({ ...s, closed: true }));
    },
  };
}
