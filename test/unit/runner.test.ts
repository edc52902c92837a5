import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestResult } from '../../src/platform/request';
import type { HeartbeatEffect } from '../../src/tracker/heartbeat';
import { createHeartbeatRunner } from '../../src/tracker/runner';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup(reply: (n: number) => RequestResult<unknown>, perform?: (effect: HeartbeatEffect) => void) {
  const sends: boolean[] = [];
  const effects: HeartbeatEffect[] = [];
  const signals: AbortSignal[] = [];
  const errors: unknown[] = [];
  const runner = createHeartbeatRunner({
    send: (initialize, signal) => {
      signals.push(signal);
      sends.push(initialize);
      return Promise.resolve(reply(sends.length - 1));
    },
    setTimer: (fn, ms) => {
      const id = setTimeout(fn, ms);
      return () => clearTimeout(id);
    },
    random: () => 0.5,
    perform: (effect) => {
      effects.push(effect);
      perform?.(effect);
    },
    onError: (error) => errors.push(error),
  });
  return { runner, sends, effects, signals, errors };
}

const ok = (data: unknown): RequestResult<unknown> => ({ ok: true, status: 200, data });

describe('heartbeat runner', () => {
  it('follows daemonrefresh on real timers', async () => {
    const { runner, sends } = setup(() => ok({ configparams: { daemonrefresh: 3 } }));
    runner.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toEqual([true]);
    await vi.advanceTimersByTimeAsync(2999);
    expect(sends).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(9000);
    expect(sends).toHaveLength(5);
  });

  it('stop cancels the timer and aborts the call in flight', async () => {
    const { runner, sends, signals } = setup(() => ok({}));
    runner.start();
    runner.stop();
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sends).toHaveLength(1);
    expect(runner.state.phase).toBe('stopped');
  });

  it('backs off on failures, then resumes the normal interval', async () => {
    const { runner, sends, effects } = setup((n) =>
      n < 2 ? { ok: false, error: { kind: 'abort', status: 0, detail: 'Failed to fetch' } } : ok({}),
    );
    runner.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(2999); // first retry: 2000*2 with jitter 0.5 -> 3000
    expect(sends).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(6000); // second: 8000 * 0.75 = 6000
    expect(sends).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2000); // answered: back to 2 s
    expect(sends).toHaveLength(4);
    expect(effects.filter((e) => e.type === 'networkError')).toHaveLength(2);
  });

  it('goes on after the real server answers `[]` and `{}`, stops after a falsy answer with nothing to show', async () => {
    const replies: unknown[] = [{ configparams: { daemonrefresh: '1' } }, [], {}, null];
    const { runner, sends, effects } = setup((n) => ok(replies[n]));
    runner.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sends).toEqual([true, false, false, false]);
    expect(runner.state.phase).toBe('stopped');
    // the falsy answer ends the loop as a stop does: no message of any kind (reason `api` shows none)
    expect(effects.map((e) => e.type)).toEqual(['answered', 'startClicks', 'answered', 'answered', 'stopped']);
    expect(effects.at(-1)).toEqual({ type: 'stopped', reason: 'api' });
    for (const falsy of [0, false, '']) {
      const run = setup(() => ok(falsy));
      run.runner.start();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(run.sends, JSON.stringify(falsy)).toEqual([true]);
      expect(run.effects).toEqual([{ type: 'stopped', reason: 'api' }]);
      // the call was answered: a restart does not count the page view again
      run.runner.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(run.sends).toEqual([true, false]);
    }
  });

  it('hands a throw while handling an answer to onError, not to the page as an unhandled rejection', async () => {
    const broken = new Error('perform broke');
    const { runner, sends, errors } = setup(
      () => ok({}),
      (effect) => {
        if (effect.type === 'answered') throw broken;
      },
    );
    runner.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toEqual([true]);
    expect(errors).toEqual([broken]);
  });
});
