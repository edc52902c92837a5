import type { NotifyStatus } from '../../context';
import type { OnError } from '../../platform/guard';
import { createStore } from '../../platform/store';

/** How long a notification stays (docs/protocol.md#notifications). */
export const DEFAULT_TIMEOUT_MS = 5000;
/** Most notifications on screen: the oldest goes first. */
export const MAX_VISIBLE = 5;

/** One notification. */
export interface Notice {
  id: number;
  text: string;
  status: NotifyStatus;
  /** Held open while hovered or focused. */
  held: boolean;
}

/** Why a notice is held open. */
export type HoldReason = 'hover' | 'focus';

/** Timers, injected so unit tests drive the store with fake time. */
export interface NotifyClock {
  now(): number;
  setTimer(fn: () => void, ms: number): () => void;
}

/** The React-free notification store. */
export interface NotifyStore {
  get(): Notice[];
  subscribe(listener: () => void): () => void;
  /** Add a notice; `timeout` 0 keeps it until closed. */
  add(text: string, status?: NotifyStatus, timeout?: number): number;
  close(id: number): void;
  /** Hold (pause its timer) or release (resume with the time that was left). */
  hold(id: number, reason: HoldReason, on: boolean): void;
  /** Clear every timer. */
  dispose(): void;
}

interface Timing {
  remaining: number;
  startedAt: number;
  cancel: (() => void) | null;
  reasons: Set<HoldReason>;
}

/** Create the store; each notice closes after its timeout, paused while held; subscriber errors go to `onError`. */
export function createNotifyStore(clock: NotifyClock, onError: OnError): NotifyStore {
  const store = createStore<Notice[]>([], onError);
  const timings = new Map<number, Timing>();
  let nextId = 1;

  const close = (id: number): void => {
    timings.get(id)?.cancel?.();
    timings.delete(id);
    store.set((list) => list.filter((notice) => notice.id !== id));
  };
  const run = (id: number, timing: Timing): void => {
    timing.startedAt = clock.now();
    timing.cancel = clock.setTimer(() => close(id), timing.remaining);
  };

  return {
    get: store.get,
    subscribe: store.subscribe,
    add(text, status = 'primary', timeout = DEFAULT_TIMEOUT_MS) {
      const id = nextId++;
      const list = [...store.get(), { id, text, status, held: false }];
      while (list.length > MAX_VISIBLE) close(list.shift()!.id);
      store.set(list);
      if (timeout > 0) {
        const timing: Timing = { remaining: timeout, startedAt: 0, cancel: null, reasons: new Set() };
        timings.set(id, timing);
        run(id, timing);
      }
      return id;
    },
    close,
    hold(id, reason, on) {
      const timing = timings.get(id);
      if (!timing) return;
      const wasHeld = timing.reasons.size > 0;
      if (on) timing.reasons.add(reason);
      else timing.reasons.delete(reason);
      const held = timing.reasons.size > 0;
      if (held === wasHeld) return;
      if (held) {
        timing.cancel?.();
        timing.cancel = null;
        timing.remaining = Math.max(0, timing.remaining - (clock.now() - timing.startedAt));
      } else run(id, timing);
      store.set((list) => list.map((notice) => (notice.id === id ? { ...notice, held } : notice)));
    },
    dispose() {
      for (const timing of timings.values()) timing.cancel?.();
      timings.clear();
    },
  };
}
