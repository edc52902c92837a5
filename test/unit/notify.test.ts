import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotifyStore, MAX_VISIBLE } from '../../src/ui/notify/store';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const make = (onError: (error: unknown) => void = () => {}) =>
  createNotifyStore(
    {
      now: () => Date.now(),
      setTimer: (fn, ms) => {
        const id = setTimeout(fn, ms);
        return () => clearTimeout(id);
      },
    },
    onError,
  );

describe('notification store', () => {
  it('hands a throwing subscriber to onError and still tells the others', () => {
    const onError = vi.fn();
    const store = make(onError);
    const broken = new Error('view broke');
    store.subscribe(() => {
      throw broken;
    });
    const other = vi.fn();
    store.subscribe(other);
    store.add('a');
    expect(onError).toHaveBeenCalledWith(broken);
    expect(other).toHaveBeenCalledTimes(1);
  });
  it('closes a notice after 5 s by default, or its own timeout', () => {
    const store = make();
    store.add('a');
    store.add('b', 'danger', 1000);
    vi.advanceTimersByTime(999);
    expect(store.get().map((n) => n.text)).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1);
    expect(store.get().map((n) => n.text)).toEqual(['a']);
    vi.advanceTimersByTime(4000);
    expect(store.get()).toEqual([]);
  });

  it('pauses while held and resumes with the time that was left', () => {
    const store = make();
    const id = store.add('a');
    vi.advanceTimersByTime(3000);
    store.hold(id, 'hover', true);
    vi.advanceTimersByTime(60_000);
    expect(store.get()).toHaveLength(1);
    expect(store.get()[0]!.held).toBe(true);
    store.hold(id, 'focus', true);
    store.hold(id, 'hover', false); // still focused: still held
    vi.advanceTimersByTime(10_000);
    expect(store.get()).toHaveLength(1);
    store.hold(id, 'focus', false);
    vi.advanceTimersByTime(1999);
    expect(store.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.get()).toEqual([]);
  });

  it('keeps a notice with timeout 0 until closed, and drops the oldest beyond the limit', () => {
    const store = make();
    const sticky = store.add('bleibt', 'warning', 0);
    vi.advanceTimersByTime(600_000);
    expect(store.get()).toHaveLength(1);
    store.close(sticky);
    for (let i = 0; i < MAX_VISIBLE + 2; i++) store.add(`n${i}`);
    expect(store.get().map((n) => n.text)).toEqual(['n2', 'n3', 'n4', 'n5', 'n6']);
    store.dispose();
    vi.advanceTimersByTime(10_000);
    expect(store.get()).toHaveLength(MAX_VISIBLE);
  });
});
