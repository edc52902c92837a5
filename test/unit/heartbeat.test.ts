import { describe, expect, it } from 'vitest';
import type { StreamAnswer } from '../../src/tracker/answer';
import { MAX_RETRY_MS, retryDelay } from '../../src/tracker/backoff';
import type { RequestError } from '../../src/platform/request';
import {
  initialHeartbeat,
  isTransient,
  mayHaveBeenCounted,
  transition,
  type HeartbeatEffect,
  type HeartbeatState,
} from '../../src/tracker/heartbeat';

const answer = (overrides: Partial<StreamAnswer> = {}): StreamAnswer => ({
  raw: {},
  config: null,
  storing: [],
  loading: [],
  binds: [],
  problems: [],
  ...overrides,
});
const types = (effects: HeartbeatEffect[]) => effects.map((e) => e.type);

/** Drive the machine: start, then answer every send with `reply(n)` until it stops or n reaches max. */
function run(reply: (n: number) => StreamAnswer, max = 1000): { state: HeartbeatState; sends: boolean[]; schedules: number[] } {
  let { state, effects } = transition(initialHeartbeat, { type: 'start' });
  const sends: boolean[] = [];
  const schedules: number[] = [];
  for (let n = 0; n < max; n++) {
    const send = effects.find((e) => e.type === 'send');
    if (!send || send.type !== 'send') break;
    sends.push(send.initialize);
    ({ state, effects } = transition(state, { type: 'answer', answer: reply(n) }));
    const schedule = effects.find((e) => e.type === 'schedule');
    if (!schedule || schedule.type !== 'schedule') break;
    schedules.push(schedule.ms);
    ({ state, effects } = transition(state, { type: 'due' }));
  }
  return { state, sends, schedules };
}

describe('heartbeat transition', () => {
  it('sends initialize=true first and omits it afterwards', () => {
    const { sends } = run(() => answer(), 3);
    expect(sends).toEqual([true, false, false]);
  });

  it('keeps the default 2 s interval until daemonrefresh says otherwise', () => {
    const { schedules } = run((n) => answer(n === 1 ? { config: { refreshSec: 5 } } : {}), 3);
    expect(schedules).toEqual([2000, 5000, 5000]);
  });

  it('stops once calls exceed floor(timeout*60/refresh)', () => {
    // 1 minute at 7 s: floor(60/7) = 8, so the 9th answer stops the loop
    const { sends, state } = run(() => answer({ config: { refreshSec: 7, timeoutMin: 1 } }));
    expect(sends).toHaveLength(9);
    expect(state.phase).toBe('stopped');
    expect(state.calls).toBe(9);
  });

  it('computes the cap without floating-point loss', () => {
    // 0.01 min = 600 ms at 100 ms: 6 calls allowed, the 7th answer stops (0.6 / 0.1 is 5.999... in floats)
    const { sends } = run(() => answer({ config: { refreshSec: 0.1, timeoutMin: 0.01 } }));
    expect(sends).toHaveLength(7);
  });

  it('stops on storing errors and shows them', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'answer', answer: answer({ storing: [{ title: 'a.php', text: 'db down' }] }) });
    expect(t.state.phase).toBe('stopped');
    expect(types(t.effects)).toEqual(['answered', 'debug', 'stopped']);
  });

  it('still fills the badges from the answer whose storing errors stop the loop', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, {
      type: 'answer',
      answer: answer({ storing: [{ title: 'a.php', text: 'db down' }], binds: [['visitors', '3']] }),
    });
    expect(t.state.phase).toBe('stopped');
    expect(t.effects).toEqual([
      { type: 'answered', answer: expect.anything() },
      { type: 'debug', items: [{ title: 'a.php', text: 'db down' }] },
      { type: 'badges', binds: [['visitors', '3']] },
      { type: 'stopped', reason: 'storing' },
    ]);
    // loading errors win over the badges, with or without storing
    t = transition(transition(initialHeartbeat, { type: 'start' }).state, {
      type: 'answer',
      answer: answer({ storing: [{ title: 'a', text: 'b' }], loading: [{ title: 'c', text: 'd' }], binds: [['visitors', '3']] }),
    });
    expect(types(t.effects)).toEqual(['answered', 'debug', 'debug', 'stopped']);
  });

  it('shows loading errors instead of updating badges, and goes on', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, {
      type: 'answer',
      answer: answer({ loading: [{ title: 'x', text: 'y' }], binds: [['visitors', '3']] }),
    });
    expect(types(t.effects)).toEqual(['answered', 'debug', 'schedule']);
    t = transition(transition(t.state, { type: 'due' }).state, {
      type: 'answer',
      answer: answer({ binds: [['visitors', '3']] }),
    });
    expect(types(t.effects)).toEqual(['answered', 'badges', 'schedule']);
  });

  it('starts the click recorder once, after the first answer with configparams', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'answer', answer: answer() });
    expect(types(t.effects)).not.toContain('startClicks');
    t = transition(transition(t.state, { type: 'due' }).state, { type: 'answer', answer: answer({ config: { maxWidth: 100 } }) });
    expect(t.effects).toContainEqual({ type: 'startClicks', maxWidth: 100, maxHeight: undefined });
    t = transition(transition(t.state, { type: 'due' }).state, { type: 'answer', answer: answer({ config: {} }) });
    expect(types(t.effects)).not.toContain('startClicks');
  });

  it("starts the click recorder again on a restart, with the limits of the page view's configparams", () => {
    // the real server sends configparams only with the page view (initialize=true): a restart gets `[]`
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'answer', answer: answer({ config: { maxWidth: 100, maxHeight: 40 } }) });
    expect(t.effects).toContainEqual({ type: 'startClicks', maxWidth: 100, maxHeight: 40 });
    t = transition(t.state, { type: 'stop' });
    t = transition(t.state, { type: 'start' });
    expect(t.effects).toEqual([
      { type: 'send', initialize: false },
      { type: 'startClicks', maxWidth: 100, maxHeight: 40 },
    ]);
    // once per start: the answers after it start nothing
    t = transition(t.state, { type: 'answer', answer: answer() });
    expect(types(t.effects)).not.toContain('startClicks');
    // a start while running changes nothing
    expect(transition(transition(t.state, { type: 'due' }).state, { type: 'start' }).effects).toEqual([]);
  });

  it("starts the click recorder with the defaults when the page view's call may have been counted unanswered", () => {
    // a timeout (or a 5xx): the later calls lack initialize, so no configparams will come
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'failure', error: { kind: 'timeout', status: 0, detail: '' }, random: 0.5 });
    t = transition(t.state, { type: 'due' });
    expect(t.effects).toEqual([{ type: 'send', initialize: false }]);
    t = transition(t.state, { type: 'answer', answer: answer() });
    expect(t.effects).toContainEqual({ type: 'startClicks', maxWidth: undefined, maxHeight: undefined });
    // a call that never reached the server is repeated with initialize: its configparams start it
    let u = transition(initialHeartbeat, { type: 'start' });
    u = transition(u.state, { type: 'failure', error: { kind: 'abort', status: 0, detail: '' }, random: 0.5 });
    u = transition(transition(u.state, { type: 'due' }).state, { type: 'answer', answer: answer() });
    expect(types(u.effects)).not.toContain('startClicks');
  });

  it('turns debug on when the server says enable_debug', () => {
    const t = transition(transition(initialHeartbeat, { type: 'start' }).state, {
      type: 'answer',
      answer: answer({ config: { debug: true } }),
    });
    expect(types(t.effects)).toContain('enableDebug');
  });

  it('retries transient failures with backoff, keeps initialize=true until an answer came', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'failure', error: { kind: 'abort', status: 0, detail: 'Failed to fetch' }, random: 0 });
    expect(t.effects[0]).toEqual({
      type: 'networkError',
      error: { kind: 'abort', status: 0, detail: 'Failed to fetch' },
      retryInMs: 2000,
    });
    expect(t.effects[1]).toEqual({ type: 'schedule', ms: 2000 });
    t = transition(t.state, { type: 'due' });
    expect(t.effects).toEqual([{ type: 'send', initialize: true }]);
    t = transition(t.state, { type: 'failure', error: { kind: 'http', status: 503, detail: '' }, random: 1 });
    expect(t.effects[1]).toEqual({ type: 'schedule', ms: 8000 });
    t = transition(transition(t.state, { type: 'due' }).state, { type: 'answer', answer: answer() });
    expect(t.state.failures).toBe(0);
    expect(t.effects.at(-1)).toEqual({ type: 'schedule', ms: 2000 });
  });

  it('stops for good on a 4xx refusal', () => {
    const t = transition(transition(initialHeartbeat, { type: 'start' }).state, {
      type: 'failure',
      error: { kind: 'http', status: 404, detail: 'Not Found' },
      random: 0.5,
    });
    expect(t.state.phase).toBe('stopped');
    expect(types(t.effects)).toEqual(['networkError', 'stopped']);
  });

  it("goes on after an answer without parts (the real server's later `[]`), nothing shown", () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'answer', answer: answer({ config: { refreshSec: 6 } }) });
    t = transition(transition(t.state, { type: 'due' }).state, { type: 'answer', answer: answer() });
    expect(t.effects).toEqual([
      { type: 'answered', answer: answer() },
      { type: 'schedule', ms: 6000 },
    ]);
  });

  it('ignores answers after stop and stale timers', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'stop' });
    expect(transition(t.state, { type: 'answer', answer: answer() }).effects).toEqual([]);
    expect(transition(t.state, { type: 'due' }).effects).toEqual([]);
  });

  it('start is idempotent while running', () => {
    const t = transition(initialHeartbeat, { type: 'start' });
    expect(transition(t.state, { type: 'start' }).effects).toEqual([]);
  });

  it('resume from the back/forward cache sends once, only when a call was scheduled', () => {
    let t = transition(transition(initialHeartbeat, { type: 'start' }).state, { type: 'answer', answer: answer() });
    const resumed = transition(t.state, { type: 'resume' });
    expect(types(resumed.effects)).toEqual(['cancel', 'send']);
    expect(transition(resumed.state, { type: 'resume' }).effects).toEqual([]);
    t = transition(initialHeartbeat, { type: 'start' });
    expect(transition(t.state, { type: 'resume' }).effects).toEqual([]);
  });
});

describe('one page view, one initialize=true (protocol section 3)', () => {
  /** The initialize flag of each call when the first call fails with `error` and every later call is answered. */
  function afterFirstFailure(error: RequestError): boolean[] {
    const sends: boolean[] = [];
    const sent = (effects: HeartbeatEffect[]) => {
      for (const e of effects) if (e.type === 'send') sends.push(e.initialize);
    };
    let t = transition(initialHeartbeat, { type: 'start' });
    sent(t.effects);
    t = transition(t.state, { type: 'failure', error, random: 0.5 });
    for (let n = 0; n < 2 && t.state.phase === 'scheduled'; n++) {
      t = transition(t.state, { type: 'due' });
      sent(t.effects);
      t = transition(t.state, { type: 'answer', answer: answer() });
    }
    return sends;
  }

  // every class the request helper reports after an answer came, or when none came in time
  const maybeCounted: Array<[string, RequestError]> = [
    [
      'a PHP notice before the JSON (parse error on a 200)',
      { kind: 'parse', status: 200, detail: '<br /><b>Notice</b>: ...{"storing":[]}' },
    ],
    ['a 200 with an HTML page', { kind: 'parse', status: 200, detail: '<!doctype html><title>Wartung</title>' }],
    ['an empty 200', { kind: 'nocontent', status: 200, detail: '' }],
    ['a 204', { kind: 'nocontent', status: 204, detail: '' }],
    ['HTTP 500', { kind: 'http', status: 500, detail: 'Internal Server Error' }],
    ['HTTP 503', { kind: 'http', status: 503, detail: '' }],
    ['HTTP 429', { kind: 'http', status: 429, detail: '' }],
    ['a timeout before any answer', { kind: 'timeout', status: 0, detail: '' }],
    ['a timeout while the body was arriving', { kind: 'timeout', status: 200, detail: '' }],
    ['a connection lost while the body was arriving', { kind: 'abort', status: 200, detail: 'network error' }],
  ];
  for (const [name, error] of maybeCounted) {
    it(`omits initialize after ${name}`, () => {
      expect(mayHaveBeenCounted(error)).toBe(true);
      expect(afterFirstFailure(error)).toEqual([true, false, false]);
    });
  }

  it('repeats initialize=true only after a request that never reached the server', () => {
    for (const detail of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'invalid address: http://[']) {
      const error: RequestError = { kind: 'abort', status: 0, detail };
      expect(mayHaveBeenCounted(error)).toBe(false);
      expect(afterFirstFailure(error)).toEqual([true, true, false]);
    }
  });

  it('keeps omitting it when a later call fails in any way', () => {
    let t = transition(transition(initialHeartbeat, { type: 'start' }).state, { type: 'answer', answer: answer() });
    t = transition(transition(t.state, { type: 'due' }).state, {
      type: 'failure',
      error: { kind: 'abort', status: 0, detail: 'Failed to fetch' },
      random: 0,
    });
    expect(transition(t.state, { type: 'due' }).effects).toEqual([{ type: 'send', initialize: false }]);
  });

  it('a refused first call (4xx) still counts as sent when the tracker is started again', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'failure', error: { kind: 'http', status: 403, detail: 'Forbidden' }, random: 0 });
    expect(t.state.phase).toBe('stopped');
    expect(transition(t.state, { type: 'start' }).effects).toEqual([{ type: 'send', initialize: false }]);
  });

  it('a call cancelled in flight (stop) may have been counted; a stop before any call was not', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'stop' });
    expect(transition(t.state, { type: 'start' }).effects).toEqual([{ type: 'send', initialize: false }]);
    t = transition(initialHeartbeat, { type: 'stop' });
    expect(transition(t.state, { type: 'start' }).effects).toEqual([{ type: 'send', initialize: true }]);
  });

  it('a stop while a retry of a never-sent first call is scheduled keeps initialize=true', () => {
    let t = transition(initialHeartbeat, { type: 'start' });
    t = transition(t.state, { type: 'failure', error: { kind: 'abort', status: 0, detail: 'Failed to fetch' }, random: 0 });
    expect(t.state.phase).toBe('scheduled');
    t = transition(t.state, { type: 'stop' });
    expect(transition(t.state, { type: 'start' }).effects).toEqual([{ type: 'send', initialize: true }]);
  });
});

describe('retry delay', () => {
  it('grows exponentially with equal jitter and is capped', () => {
    expect(retryDelay(1, 2000, 0)).toBe(2000);
    expect(retryDelay(1, 2000, 1)).toBe(4000);
    expect(retryDelay(2, 2000, 0.5)).toBe(6000);
    expect(retryDelay(20, 2000, 1)).toBe(MAX_RETRY_MS);
    expect(retryDelay(20, 2000, 0)).toBe(MAX_RETRY_MS / 2);
  });
  it('classifies failures', () => {
    expect(isTransient({ kind: 'timeout', status: 0, detail: '' })).toBe(true);
    expect(isTransient({ kind: 'http', status: 502, detail: '' })).toBe(true);
    expect(isTransient({ kind: 'http', status: 429, detail: '' })).toBe(true);
    expect(isTransient({ kind: 'http', status: 403, detail: '' })).toBe(false);
  });
});
