import type { RequestError } from '../platform/request';
import type { ServerItem, StreamAnswer } from './answer';
import { retryDelay } from './backoff';

/** Interval until the server says otherwise (docs/protocol.md#constants). */
export const DEFAULT_REFRESH_MS = 2000;
/** Shortest interval a server may ask for; below it a bad setting would spin the page. */
export const MIN_REFRESH_MS = 10;

/** Where the loop is. */
export type Phase = 'idle' | 'waiting' | 'scheduled' | 'stopped';

/** The heartbeat's whole state; transitions never mutate it. */
export interface HeartbeatState {
  phase: Phase;
  /** Answers counted since start (every answer counts, errors included). */
  calls: number;
  refreshMs: number;
  /** daemontimeout in minutes; 0 = no cap. */
  timeoutMin: number;
  /**
   * The page view may have been counted: an answer of any kind came, or a call timed out or was
   * cancelled in flight. Later calls omit `initialize` (protocol section 3: one page view, one
   * `initialize=true`).
   */
  initialized: boolean;
  /**
   * The click recorder's size limits once it started (from the first `configparams`): a restart
   * starts the recorder again with them, as the real server sends its settings only with the page view.
   */
  clickStart: StartClicks | null;
  /** Consecutive transient failures (drives the backoff). */
  failures: number;
}

/** Start the click recorder with these size limits (undefined: the component's defaults). */
export interface StartClicks {
  type: 'startClicks';
  maxWidth: number | undefined;
  maxHeight: number | undefined;
}

/** Something that happened to the loop. */
export type HeartbeatEvent =
  | { type: 'start' }
  | { type: 'due' }
  | { type: 'answer'; answer: StreamAnswer }
  | { type: 'failure'; error: RequestError; random: number }
  | { type: 'stop' }
  | { type: 'resume' };

/** Why the loop stopped by itself. */
export type StopReason = 'storing' | 'timeout' | 'rejected' | 'api';

/** What the runner must do after a transition. */
export type HeartbeatEffect =
  | { type: 'send'; initialize: boolean }
  | { type: 'schedule'; ms: number }
  | { type: 'cancel' }
  | { type: 'debug'; items: ServerItem[] }
  | { type: 'networkError'; error: RequestError; retryInMs: number | null }
  | { type: 'badProblems'; problems: string[] }
  | { type: 'enableDebug' }
  | { type: 'badges'; binds: Array<[string, string]> }
  | StartClicks
  | { type: 'answered'; answer: StreamAnswer }
  | { type: 'stopped'; reason: StopReason };

/** A transition's result. */
export interface Transition {
  state: HeartbeatState;
  effects: HeartbeatEffect[];
}

/** The loop before it starts. */
export const initialHeartbeat: HeartbeatState = {
  phase: 'idle',
  calls: 0,
  refreshMs: DEFAULT_REFRESH_MS,
  timeoutMin: 0,
  initialized: false,
  clickStart: null,
  failures: 0,
};

/** The pure heartbeat state machine of docs/protocol.md#heartbeat-loop. */
export function transition(state: HeartbeatState, event: HeartbeatEvent): Transition {
  switch (event.type) {
    case 'start':
      if (state.phase === 'waiting' || state.phase === 'scheduled') return { state, effects: [] };
      return {
        state: { ...state, phase: 'waiting', calls: 0, failures: 0 },
        // a restart (tracker.stop() and start(), a category off and on): the recorder again, as it was
        effects: [{ type: 'send', initialize: !state.initialized }, ...(state.clickStart ? [state.clickStart] : [])],
      };
    case 'due':
      if (state.phase !== 'scheduled') return { state, effects: [] };
      return { state: { ...state, phase: 'waiting' }, effects: [{ type: 'send', initialize: !state.initialized }] };
    case 'resume':
      // a page restored from the back/forward cache: one fresh call now instead of the frozen timer
      if (state.phase !== 'scheduled') return { state, effects: [] };
      return {
        state: { ...state, phase: 'waiting' },
        effects: [{ type: 'cancel' }, { type: 'send', initialize: !state.initialized }],
      };
    case 'stop': {
      if (state.phase === 'idle' || state.phase === 'stopped') return { state: { ...state, phase: 'stopped' }, effects: [] };
      // a call cancelled in flight may have reached the server: it counts as sent
      const initialized = state.initialized || state.phase === 'waiting';
      return {
        state: { ...state, phase: 'stopped', initialized },
        effects: [{ type: 'cancel' }, { type: 'stopped', reason: 'api' }],
      };
    }
    case 'answer':
      return state.phase === 'waiting' ? onAnswer(state, event.answer) : { state, effects: [] };
    case 'failure':
      return state.phase === 'waiting' ? onFailure(state, event.error, event.random) : { state, effects: [] };
  }
}

function onAnswer(previous: HeartbeatState, answer: StreamAnswer): Transition {
  const effects: HeartbeatEffect[] = [{ type: 'answered', answer }];
  const state: HeartbeatState = { ...previous, calls: previous.calls + 1, initialized: true, failures: 0 };
  const config = answer.config;
  if (config) {
    if (config.refreshSec !== undefined) state.refreshMs = Math.max(MIN_REFRESH_MS, Math.round(config.refreshSec * 1000));
    if (config.timeoutMin !== undefined) state.timeoutMin = config.timeoutMin;
    if (config.debug) effects.push({ type: 'enableDebug' });
  }
  if (answer.problems.length > 0) effects.push({ type: 'badProblems', problems: answer.problems });
  // the first configparams start it; so does the first answer after a page view's call that may have
  // been counted unanswered (a timeout, a 5xx): later calls lack `initialize`, and the real server
  // sends its settings only with it, so the recorder starts with the component's defaults
  if (!state.clickStart && (config || (previous.initialized && previous.calls === 0)))
    effects.push((state.clickStart = { type: 'startClicks', maxWidth: config?.maxWidth, maxHeight: config?.maxHeight }));
  if (answer.storing.length > 0) effects.push({ type: 'debug', items: answer.storing });
  // independently of storing, as the original client does: the answer that stops the loop still fills the badges
  if (answer.loading.length > 0) effects.push({ type: 'debug', items: answer.loading });
  else if (answer.binds.length > 0) effects.push({ type: 'badges', binds: answer.binds });
  if (answer.storing.length > 0) {
    effects.push({ type: 'stopped', reason: 'storing' });
    return { state: { ...state, phase: 'stopped' }, effects };
  }

  // floor(timeout*60 / refresh), computed in whole milliseconds: 0.6 s / 0.1 s is 5.999... in floats
  if (state.timeoutMin > 0 && state.calls > Math.floor(Math.round(state.timeoutMin * 60_000) / state.refreshMs)) {
    effects.push({ type: 'stopped', reason: 'timeout' });
    return { state: { ...state, phase: 'stopped' }, effects };
  }
  effects.push({ type: 'schedule', ms: state.refreshMs });
  return { state: { ...state, phase: 'scheduled' }, effects };
}

/**
 * Transient failures (no answer, timeout, 5xx, 408, 429, unreadable answers) are retried with
 * capped exponential backoff; any other 4xx means the endpoint refuses us, so the loop stops.
 */
function onFailure(failed: HeartbeatState, error: RequestError, random: number): Transition {
  // only a call that never reached the server may repeat initialize=true
  const previous = { ...failed, initialized: failed.initialized || mayHaveBeenCounted(error) };
  if (!isTransient(error)) {
    return {
      state: { ...previous, phase: 'stopped' },
      effects: [
        { type: 'networkError', error, retryInMs: null },
        { type: 'stopped', reason: 'rejected' },
      ],
    };
  }
  const failures = previous.failures + 1;
  const ms = retryDelay(failures, previous.refreshMs, random);
  return {
    state: { ...previous, phase: 'scheduled', failures },
    effects: [
      { type: 'networkError', error, retryInMs: ms },
      { type: 'schedule', ms },
    ],
  };
}

/**
 * Whether the server may have counted a failed call's page view. Any answer (an HTTP error, an
 * empty or unreadable body, a PHP notice before the JSON) and a timeout (the server may still be
 * working on it) may have; only a request that failed before any answer came (the fetch itself
 * rejected: connection refused, DNS, offline, an invalid address) certainly did not.
 */
export function mayHaveBeenCounted(error: RequestError): boolean {
  return !(error.kind === 'abort' && error.status === 0);
}

/** Whether a failed call is worth retrying. */
export function isTransient(error: RequestError): boolean {
  if (error.kind !== 'http') return true;
  return error.status >= 500 || error.status === 408 || error.status === 429;
}
