import { afterEach, describe, expect, it, vi } from 'vitest';
import { detach } from '../../src/api';
import { createDebugStore } from '../../src/platform/debug';
import { attempt, settle } from '../../src/platform/guard';
import { createLifetime } from '../../src/platform/lifetime';

describe('one guard for the bundle’s own failures', () => {
  it('attempt returns the fallback and reports what was thrown', () => {
    const onError = vi.fn();
    const broken = new Error('x');
    expect(
      attempt(
        () => {
          throw broken;
        },
        onError,
        7,
      ),
    ).toBe(7);
    expect(onError).toHaveBeenCalledWith(broken);
    expect(attempt(() => 1, onError, 7)).toBe(1);
  });

  it('settle reports a rejected chain instead of leaving it unhandled', async () => {
    const onError = vi.fn();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      settle(Promise.reject(new Error('late')), onError);
      settle(
        Promise.resolve(1).then(() => {
          throw new Error('in then');
        }),
        onError,
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(onError.mock.calls.map(([error]) => (error as Error).message)).toEqual(['late', 'in then']);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('lifetime.listen reports a throwing handler, keeps listening and still removes it on dispose', () => {
    const onError = vi.fn();
    const lifetime = createLifetime(globalThis, onError);
    const target = new EventTarget();
    let calls = 0;
    lifetime.listen(target, 'ping', () => {
      calls++;
      throw new Error('handler broke');
    });
    expect(() => target.dispatchEvent(new Event('ping'))).not.toThrow();
    target.dispatchEvent(new Event('ping'));
    expect(calls).toBe(2);
    expect(onError).toHaveBeenCalledTimes(2);
    lifetime.dispose();
    target.dispatchEvent(new Event('ping'));
    expect(calls).toBe(2);
  });

  it('the debug store hands a throwing subscriber to onError', () => {
    const onError = vi.fn();
    const store = createDebugStore(true, onError);
    store.subscribe(() => {
      throw new Error('view broke');
    });
    store.add('t', 'x');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(store.get().messages.map((m) => m.text)).toEqual(['x']);
  });
});

describe('event details are detached copies', () => {
  const proto = Array.prototype as unknown as { toJSON?: unknown };
  afterEach(() => {
    delete proto.toJSON;
    vi.unstubAllGlobals();
  });

  it('copies deeply, untouched by a patched Array.prototype.toJSON', () => {
    proto.toJSON = function () {
      return 'garbled';
    };
    const detail = { status: 'allow', categories: { 1: true, 3: false }, storing: [{ corefile: 'a', details: 'b' }] };
    const copy = detach(detail);
    expect(copy).toEqual(detail);
    expect(copy).not.toBe(detail);
    expect(copy.storing).not.toBe(detail.storing);
    expect(Array.isArray(copy.storing)).toBe(true);
  });

  it('falls back to a plain copy where structuredClone is missing or refuses the value', () => {
    proto.toJSON = () => 'garbled';
    const fn = () => 1;
    const refused = detach({ list: [1, { a: 'b' }], fn });
    expect(refused).toEqual({ list: [1, { a: 'b' }], fn });
    expect(Array.isArray(refused.list)).toBe(true);

    vi.stubGlobal('structuredClone', undefined);
    const original = { list: [1, 2], nested: { x: 'y' } };
    const plain = detach(original);
    expect(plain).toEqual(original);
    expect(plain.nested).not.toBe(original.nested);
    expect(detach('text')).toBe('text');
  });
});
