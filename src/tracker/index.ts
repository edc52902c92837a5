import type { Context } from '../context';
import { describeError } from '../joomla/alerts';
import { isOwnUi } from '../platform/dom';
import { settle } from '../platform/guard';
import type { RequestError } from '../platform/request';
import { parseSaveAnswer } from './answer';
import { moduleAvailable, updateBadges } from './badges';
import { askWindowsVersion } from './client-hints';
import { DEFAULT_MAX_HEIGHT, DEFAULT_MAX_WIDTH, startClickRecorder } from './clicks';
import type { HeartbeatEffect } from './heartbeat';
import { createHeartbeatRunner } from './runner';
import { clickBody, clickUrl, foreignReferrer, heartbeatBody, streamUrl } from './wire';

/** The tracker's handle for main.ts and the public API. */
export interface Tracker {
  start(): void;
  stop(): void;
  /** Whether the heartbeat loop is running (waiting for or scheduled to send). */
  running(): boolean;
  dispose(): void;
}

/**
 * Text for a failed call, shown after the network-error label in the debug box: the status and
 * server message, or the network error itself; Joomla's texts for the other classes.
 */
export function describeRequestError(error: RequestError, t: Context['t']): string {
  if (error.kind === 'http') return `HTTP ${error.status}${error.detail ? ` ${error.detail}` : ''}`;
  if (error.kind === 'abort' && error.detail) return error.detail;
  return describeError(error, t);
}

/** A short printable form of an answer for console logs. */
function brief(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? '').slice(0, 500);
  } catch {
    return '[unprintable]';
  }
}

/** Heartbeat, badges and click recorder over the context's request helper and debug store. */
export function createTracker(ctx: Context): Tracker {
  const { config, doc, win, t, debug, lifetime } = ctx;
  const url = streamUrl(config.base);
  const saveUrl = clickUrl(config.base);
  let stopClicks: (() => void) | null = null;

  const recordClick = (selector: string): void => {
    ctx.emit('pagepulse:click', selector);
    settle(
      ctx
        .request({ url: saveUrl, data: clickBody(selector, win.location.href), keepalive: true, timeout: config.requestTimeout })
        .then((result) => {
          if (!result.ok) {
            debug.add(t.heatmapTitle, t.heatmapNetworkError + describeRequestError(result.error, t));
            return;
          }
          const saved = parseSaveAnswer(result.data);
          for (const item of saved.errors) debug.add(item.title, item.text);
          if (saved.malformed) debug.add(t.heatmapTitle, t.streamBadAnswer + 'storing');
          else if (saved.errors.length === 0 && debug.get().enabled)
            ctx.log.info(`heatmap click saved: ${selector} ${brief(result.data)}`);
        }),
      ctx.log.error,
    );
  };

  const perform = (effect: HeartbeatEffect): void => {
    switch (effect.type) {
      case 'debug':
        for (const item of effect.items) debug.add(item.title, item.text);
        return;
      case 'networkError':
        debug.add(t.streamTitle, t.streamNetworkError + describeRequestError(effect.error, t));
        return;
      case 'badProblems':
        debug.add(t.streamTitle, t.streamBadAnswer + effect.problems.join(', '));
        return;
      case 'enableDebug':
        debug.setEnabled(true);
        return;
      case 'badges':
        updateBadges(doc, effect.binds);
        return;
      case 'startClicks':
        stopClicks ??= startClickRecorder({
          win,
          doc,
          lifetime,
          maxWidth: effect.maxWidth ?? DEFAULT_MAX_WIDTH,
          maxHeight: effect.maxHeight ?? DEFAULT_MAX_HEIGHT,
          stateInput: config.stateInput,
          stable: config.selectors === 'stable',
          isOwnUi,
          record: recordClick,
        });
        return;
      case 'answered':
        // the server's answer as it came (docs/protocol.md#9), not the tracker's reading of it
        ctx.emit('pagepulse:heartbeat', effect.answer.raw);
        // a string, not the object: an open inspector would keep every logged object alive
        if (debug.get().enabled) ctx.log.info(`heartbeat answer ${brief(effect.answer.raw)}`);
        return;
      case 'stopped':
        if (effect.reason !== 'api' && debug.get().enabled) debug.add(t.streamTitle, t.streamStopped + effect.reason);
        return;
      default:
        return;
    }
  };

  // the Windows 11 marker: asked on the first call, sent on the calls after it once known
  let windowsVersion: string | null = null;
  let askedWindows = false;
  const runner = createHeartbeatRunner({
    send: (initialize, signal) => {
      const data = heartbeatBody(initialize, {
        href: win.location.href,
        moduleAvailable: moduleAvailable(doc),
        outerWidth: win.outerWidth,
        outerHeight: win.outerHeight,
        windowsVersion,
        externalReferrer: foreignReferrer(doc.referrer, win.location.hostname),
      });
      if (!askedWindows) {
        askedWindows = true;
        settle(
          askWindowsVersion(win.navigator).then((version) => (windowsVersion = version)),
          ctx.log.error,
        );
      }
      return ctx.request({ url, data, timeout: config.requestTimeout, signal });
    },
    setTimer: (fn, ms) => lifetime.timeout(fn, ms),
    random: Math.random,
    perform,
    onError: ctx.log.error,
  });

  // back/forward cache: timers were frozen; one fresh call on restore (no unload listeners)
  lifetime.listen(win, 'pageshow', (event) => {
    if ((event as PageTransitionEvent).persisted) runner.resume();
  });

  return {
    start: () => runner.start(),
    stop: () => {
      runner.stop();
      stopClicks?.();
      stopClicks = null;
    },
    running: () => runner.state.phase === 'waiting' || runner.state.phase === 'scheduled',
    dispose: () => runner.stop(),
  };
}
