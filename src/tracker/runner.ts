import { settle, type OnError } from '../platform/guard';
import type { RequestResult } from '../platform/request';
import { parseStreamAnswer } from './answer';
import { initialHeartbeat, transition, type HeartbeatEffect, type HeartbeatEvent, type HeartbeatState } from './heartbeat';

/** What the runner needs; all injected so unit tests drive it with fake timers and a fake send. */
export interface RunnerDeps {
  /** Send one stream.display call; resolves (never rejects) with the raw answer. */
  send: (initialize: boolean, signal: AbortSignal) => Promise<RequestResult<unknown>>;
  /** Schedule fn after ms; returns a cancel function. */
  setTimer: (fn: () => void, ms: number) => () => void;
  /** Jitter source in [0, 1). */
  random: () => number;
  /** Every effect other than send/schedule/cancel (debug messages, badges, click recorder...). */
  perform: (effect: HeartbeatEffect) => void;
  /** Where a throw while handling an answer goes (the logger): never an unhandled rejection in the page. */
  onError: OnError;
}

/** The heartbeat runner: feeds events to the pure transition and performs its effects. */
export interface HeartbeatRunner {
  start(): void;
  stop(): void;
  /** The page came back from the back/forward cache. */
  resume(): void;
  readonly state: HeartbeatState;
}

/** Create a runner in the idle phase. */
export function createHeartbeatRunner(deps: RunnerDeps): HeartbeatRunner {
  let state = initialHeartbeat;
  let cancelTimer: (() => void) | null = null;
  let inflight: AbortController | null = null;

  const dispatch = (event: HeartbeatEvent): void => {
    const next = transition(state, event);
    state = next.state;
    for (const effect of next.effects) run(effect);
  };

  const cancel = (): void => {
    cancelTimer?.();
    cancelTimer = null;
    inflight?.abort();
    inflight = null;
  };

  const run = (effect: HeartbeatEffect): void => {
    switch (effect.type) {
      case 'send': {
        const controller = new AbortController();
        inflight = controller;
        settle(
          deps.send(effect.initialize, controller.signal).then((result) => {
            if (inflight !== controller) return; // stopped or superseded meanwhile
            inflight = null;
            // a falsy answer ends the loop silently, as in the original client: as a stop does
            const answer = result.ok ? parseStreamAnswer(result.data) : null;
            dispatch(
              answer
                ? { type: 'answer', answer }
                : result.ok
                  ? { type: 'stop' }
                  : { type: 'failure', error: result.error, random: deps.random() },
            );
          }),
          deps.onError,
        );
        return;
      }
      case 'schedule':
        cancelTimer?.();
        cancelTimer = deps.setTimer(() => {
          cancelTimer = null;
          dispatch({ type: 'due' });
        }, effect.ms);
        return;
      case 'cancel':
        cancel();
        return;
      default:
        deps.perform(effect);
    }
  };

  return {
    start: () => dispatch({ type: 'start' }),
    stop: () => {
      dispatch({ type: 'stop' });
      cancel();
    },
    resume: () => dispatch({ type: 'resume' }),
    get state() {
      return state;
    },
  };
}
