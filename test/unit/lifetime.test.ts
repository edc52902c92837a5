import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLifetime } from '../../src/platform/lifetime';

afterEach(() => {
  vi.useRealTimers();
});

/** A hand-driven requestIdleCallback: `idle()` runs what is queued, as an idle period would. */
function idleTimers() {
  const queued = new Map<number, { fn: () => void; timeout: number | undefined }>();
  let next = 1;
  return {
    queued,
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval,
    clearInterval: globalThis.clearInterval,
    requestIdleCallback: ((fn: () => void, options?: { timeout?: number }) => {
      queued.set(next, { fn, timeout: options?.timeout });
      return next++;
    }) as unknown as typeof requestIdleCallback,
    cancelIdleCallback: ((id: number) => void queued.delete(id)) as typeof cancelIdleCallback,
    idle() {
      const due = [...queued.values()];
      queued.clear();
      for (const { fn } of due) fn();
    },
  };
}

describe('lifetime.idle', () => {
  it('runs once when the page is idle, with the longest wait passed on, and is then no longer live', () => {
    const timers = idleTimers();
    const lifetime = createLifetime(timers);
    const fn = vi.fn();
    lifetime.idle(fn, 1000);
    expect(lifetime.size).toBe(1);
    expect([...timers.queued.values()][0]!.timeout).toBe(1000);
    expect(fn).not.toHaveBeenCalled();
    timers.idle();
    expect(fn).toHaveBeenCalledTimes(1);
    expect(lifetime.size).toBe(0);
  });

  it('is cancelled by dispose and by its cancel function', () => {
    const timers = idleTimers();
    const lifetime = createLifetime(timers);
    const kept = vi.fn();
    const cancelled = vi.fn();
    lifetime.idle(kept, 1000);
    const cancel = lifetime.idle(cancelled, 1000);
    cancel();
    expect(timers.queued.size).toBe(1);
    lifetime.dispose();
    expect(timers.queued.size).toBe(0);
    timers.idle();
    expect(kept).not.toHaveBeenCalled();
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('falls back to a 0 ms timeout without requestIdleCallback, and a throwing callback is reported', () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const lifetime = createLifetime(
      {
        setTimeout: globalThis.setTimeout,
        clearTimeout: globalThis.clearTimeout,
        setInterval: globalThis.setInterval,
        clearInterval: globalThis.clearInterval,
      },
      (error) => errors.push(error),
    );
    const order: string[] = [];
    lifetime.idle(() => order.push('idle'), 1000);
    lifetime.idle(() => {
      throw new Error('kaputt');
    }, 1000);
    order.push('sync');
    vi.advanceTimersByTime(0);
    expect(order).toEqual(['sync', 'idle']);
    expect(errors).toHaveLength(1);
    expect(lifetime.size).toBe(0);
  });
});

describe('lifetime.timeout', () => {
  it('holds a delay past 2^31 - 1 ms at that, instead of letting it wrap and fire at once', () => {
    const delays: number[] = [];
    const timers = {
      ...idleTimers(),
      setTimeout: ((fn: () => void, ms: number) => {
        delays.push(ms);
        return globalThis.setTimeout(fn, 0);
      }) as unknown as typeof setTimeout,
    };
    const lifetime = createLifetime(timers);
    // a daemonrefresh of 3,000,000 s (a broken or hostile answer), and an ordinary one
    lifetime.timeout(() => {}, 3_000_000_000);
    lifetime.timeout(() => {}, 6000);
    expect(delays).toEqual([2 ** 31 - 1, 6000]);
    lifetime.dispose();
  });
});
