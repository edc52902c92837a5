import { safely, type OnError } from './guard';

/**
 * Everything the bundle attaches to the page goes through one Lifetime, so that `destroy()`
 * can take it all back and a test can count what is still attached.
 */
export interface Lifetime {
  /** addEventListener that is removed on dispose; a throwing handler is reported, never thrown into the page. */
  listen<K extends string>(
    target: EventTarget,
    type: K,
    handler: (event: Event) => void,
    options?: AddEventListenerOptions,
  ): () => void;
  /** setTimeout that is cleared on dispose; returns a cancel function. */
  timeout(fn: () => void, ms: number): () => void;
  /**
   * Run once the page is idle, at the latest after `maxWaitMs` (requestIdleCallback; a 0 ms
   * timeout where there is none); cancelled on dispose; returns a cancel function.
   */
  idle(fn: () => void, maxWaitMs: number): () => void;
  /** setInterval that is cleared on dispose; returns a cancel function. */
  interval(fn: () => void, ms: number): () => void;
  /** Register any other teardown (observers, host elements, React roots). */
  add(dispose: () => void): () => void;
  /** Number of live registrations (listeners, timers, other). */
  readonly size: number;
  /** True once dispose() ran; later registrations are disposed at once. */
  readonly disposed: boolean;
  /** Run every teardown, newest first; never throws. */
  dispose(): void;
}

/** Create a Lifetime over the given timer functions (the page's by default). */
export function createLifetime(
  timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval'> &
    Partial<Pick<typeof globalThis, 'requestIdleCallback' | 'cancelIdleCallback'>> = globalThis,
  onError: OnError = () => {},
): Lifetime {
  const live = new Set<() => void>();
  let disposed = false;

  const add = (dispose: () => void): (() => void) => {
    if (disposed) {
      safely(dispose, onError);
      return () => {};
    }
    let done = false;
    const once = (): void => {
      if (done) return;
      done = true;
      live.delete(once);
      safely(dispose, onError);
    };
    live.add(once);
    return once;
  };

  /** A one-shot callback: live until it runs or is cancelled (by its cancel or by dispose). */
  const oneShot = <Id>(fn: () => void, start: (run: () => void) => Id, stop: (id: Id) => void): (() => void) => {
    let cancel = (): void => {};
    const id = start(() => {
      cancel();
      safely(fn, onError);
    });
    cancel = add(() => stop(id));
    return cancel;
  };
  const timeout = (fn: () => void, ms: number): (() => void) =>
    oneShot(
      fn,
      // a delay past 2^31 - 1 ms (24.8 days) would wrap and fire at once (an absurd daemonrefresh)
      (run) => timers.setTimeout(run, Math.min(ms, 2 ** 31 - 1)),
      (id) => timers.clearTimeout(id),
    );

  return {
    listen(target, type, handler, options) {
      const guarded = (event: Event): void => safely(() => handler(event), onError);
      target.addEventListener(type, guarded, options);
      return add(() => target.removeEventListener(type, guarded, options));
    },
    timeout,
    idle(fn, maxWaitMs) {
      const request = timers.requestIdleCallback;
      const cancelIdle = timers.cancelIdleCallback;
      if (typeof request !== 'function' || typeof cancelIdle !== 'function') return timeout(fn, 0);
      return oneShot(
        fn,
        (run) => request.call(timers, run, { timeout: maxWaitMs }),
        (id) => cancelIdle.call(timers, id),
      );
    },
    interval(fn, ms) {
      const id = timers.setInterval(() => safely(fn, onError), ms);
      return add(() => timers.clearInterval(id));
    },
    add,
    get size() {
      return live.size;
    },
    get disposed() {
      return disposed;
    },
    dispose() {
      disposed = true;
      for (const dispose of [...live].reverse()) dispose();
    },
  };
}
