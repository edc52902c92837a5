import { createApi, createEmitter, snapshot, type PagePulseApi } from './api';
import { readConfig } from './config';
import type { Context, Logger, PagePulseEvents } from './context';
import { CHOICES_KEY } from './consent/startup';
import { guardedStorage, readItem } from './consent/storage';
import { createConsentStore } from './consent/store';
import { startConsent, startConsentEarly, type ConsentEarly, type ConsentHandle } from './consent';
import { acceptsByCountry } from './consent/rules';
import { messages } from './i18n';
import { documentCookieJar } from './platform/cookies';
import { showPlatformError } from './joomla/alerts';
import { startKeepalive } from './joomla/keepalive';
import { settle } from './platform/guard';
import { createLifetime, type Lifetime } from './platform/lifetime';
import { createRequester, reporting } from './platform/request';
import { createTracker } from './tracker';
import { createDebugStore } from './platform/debug';
import { createConsentViewPort } from './ui/consent';
import { createPlaceholders } from './ui/consent/placeholder';
import { supersedeOriginals, type Originals } from './joomla/originals';
import { holdMarkup } from './platform/markup';
import { watchInsertions } from './platform/watch';
import { createNotifier } from './ui/notify';
import { watchDebugBox } from './ui/surfaces';
import { besideBundle, heatmapHandle } from './ui/qa-files';

declare global {
  interface Window {
    /** The bundle's public API (docs/protocol.md#public-api). */
    PagePulse?: PagePulseApi;
  }
  interface DocumentEventMap {
    'pagepulse:ready': CustomEvent<PagePulseEvents['pagepulse:ready']>;
    'pagepulse:consent': CustomEvent<PagePulseEvents['pagepulse:consent']>;
    'pagepulse:heartbeat': CustomEvent<PagePulseEvents['pagepulse:heartbeat']>;
    'pagepulse:click': CustomEvent<PagePulseEvents['pagepulse:click']>;
  }
}

/** Marks a page where a copy of the bundle already runs: a second copy starts nothing. */
const INSTANCE = Symbol.for('pagepulse.instance');

const log: Logger = {
  info: (...args) => console.info('PagePulse:', ...args),
  warn: (...args) => console.warn('PagePulse:', ...args),
  error: (...args) => console.error('PagePulse:', ...args),
};

// document.currentScript is only set while this file first runs (also for a bookmarklet's tag)
const ownScript = findOwnScript();

try {
  const marker = window as unknown as Record<symbol, unknown>;
  if (marker[INSTANCE]) {
    log.info('already running on this page; this copy starts nothing');
  } else {
    marker[INSTANCE] = true;
    // in the microtask right after this script's own run: a microtask checkpoint follows every
    // script, so the blocker and the banner still come before the parser reads the next tag, but
    // no frame of the bundle's top-level function (the whole file) is on the stack. With DevTools
    // attached (Lighthouse, PageSpeed Insights) Chromium records a stack for each cookie read and
    // each request a script starts, and such a frame makes V8 re-parse the whole bundle for its
    // source positions (docs/decisions.md "Start-up order" and "Performance, round 3")
    queueMicrotask(() => {
      try {
        boot(marker);
      } catch (error) {
        log.error('failed to start', error);
      }
    });
  }
} catch (error) {
  log.error('failed to start', error);
}

function findOwnScript(): HTMLScriptElement | null {
  try {
    const current = document.currentScript;
    if (current instanceof HTMLScriptElement) return current;
    const tags = document.querySelectorAll<HTMLScriptElement>('script[src*="pagepulse"]');
    return tags[tags.length - 1] ?? null;
  } catch {
    return null;
  }
}

/** Run once the DOM is parsed: a head tag waits, a body-end or bookmarklet tag runs at once. */
function whenReady(lifetime: Lifetime, run: () => void): void {
  if (document.readyState !== 'loading') return run();
  const off = lifetime.listen(document, 'DOMContentLoaded', () => {
    off();
    run();
  });
}

/** Evaluation time: config, stores and what must act before the DOM is ready; the rest waits for it. */
function boot(marker: Record<symbol, unknown>): void {
  const win = window;
  const doc = document;
  const lifetime = createLifetime(win, (error) => log.error(error));
  const env = {
    win: win as unknown as Window & Record<string, unknown>,
    doc,
    script: ownScript,
    warn: (m: string) => console.warn(m),
  };
  const warned = new Set<string>();
  const config = readConfig(env, warned);
  const t = messages(config.lang);
  const notifier = createNotifier({ doc, win, lifetime, log, t });
  const cookies = documentCookieJar(doc);
  const ctx: Context = {
    config,
    win,
    doc,
    lifetime,
    log,
    t,
    request: createRequester({
      // looked up per call: a page that wraps fetch later (monitoring, polyfills) is honoured
      fetch: (input, init) => win.fetch(input, init),
      pageUrl: () => win.location.href,
      csrfToken: () => config.csrfToken,
      setTimeout: win.setTimeout.bind(win) as typeof setTimeout,
      clearTimeout: win.clearTimeout.bind(win) as typeof clearTimeout,
      timeoutMs: config.requestTimeout,
    }),
    debug: createDebugStore(config.debug, (error) => log.error(error)),
    cookies,
    // storage blocked (privacy mode, sandbox): no com_gdpr toggles
    consent: createConsentStore(
      cookies,
      config,
      (error) => log.error(error),
      () =>
        readItem(
          guardedStorage(() => win.localStorage),
          CHOICES_KEY,
        ),
    ),
    notify: (text, options) => notifier.notify(text, options),
    emit: createEmitter(doc),
  };

  lifetime.add(() => notifier.dispose());
  // every change of the consent state is announced, from here on: an early banner takes a choice while
  // the page still parses (the start-up's second reading of the page's options is no change of it)
  let rereading = false;
  lifetime.add(ctx.consent.subscribe(() => rereading || ctx.emit('pagepulse:consent', snapshot(ctx.consent.get()))));
  // before the DOM is ready: the insertion watch, which keeps the component's own clients (when
  // PagePulse replaces them) and vendor code (until a choice) from running, must precede other tags
  // with the consent blocker: iframes in markup other scripts set held before the call connects them
  // (src/platform/markup.ts; docs/decisions.md "Blocking"), in the page and in its friendly iframes
  const watch =
    config.tracker || config.consent
      ? watchInsertions({
          win,
          doc,
          lifetime,
          onError: log.error,
          frames: config.consent,
          realm: config.consent ? (w) => holdMarkup(w, lifetime) : undefined,
        })
      : null;
  const originals = watch ? supersedeOriginals(watch, { tracker: config.tracker, consent: config.consent }) : null;
  // com_gdpr's own client runs already (its tag came first): one banner, never two
  const early =
    config.consent && watch && !originals?.consent ? startConsentEarly(ctx, watch, createPlaceholders(doc, config, ctx.t)) : null;
  // a first visit shows the banner first (docs/decisions.md "Start-up order"): with a <body> to show it in (a
  // tag in the body, a bookmarklet), the consent widget starts now, while the script runs, and the
  // banner is in the page before the parser goes on; a tag in <head> starts it at DOMContentLoaded
  const bannerNow = early !== null && doc.body !== null && !ctx.consent.get().chosen && !acceptsByCountry(config.country);
  const consent = bannerNow ? startConsent(ctx, early, createConsentViewPort(ctx)) : null;
  const run = (): void => {
    try {
      // a tag first in <head> ran before the options the page prints after it (Joomla's script
      // options, jrealtimeBaseURI, com_gdpr's globals): read once more now that they are there
      Object.assign(config, readConfig(env, warned));
      rereading = true;
      if (!ctx.consent.get().chosen) ctx.consent.reread();
      rereading = false;
      start(ctx, marker, early, consent, originals);
    } catch (error) {
      log.error('failed to start', error);
    }
  };
  whenReady(lifetime, run);
}

/** DOM ready: debug box watcher, tracker, consent widget (unless it started already), public API. */
function start(
  ctx: Context,
  marker: Record<symbol, unknown>,
  early: ConsentEarly | null,
  started: ConsentHandle | null,
  originals: Originals | null,
): void {
  const { win, config, lifetime } = ctx;
  lifetime.add(watchDebugBox(ctx, (file) => besideBundle(file, ownScript)));
  lifetime.add(startKeepalive(ctx));
  // the component's own client is on the page and runs: no second heartbeat, click recorder or banner
  for (const file of [originals?.tracker, originals?.consent])
    if (file) ctx.debug.add('Joomla', `${file} runs already: PagePulse leaves that part to it.`);

  const tracker = config.tracker && !originals?.tracker ? createTracker(ctx) : null;
  if (tracker) {
    lifetime.add(() => tracker.dispose());
    // docs/protocol.md#tracking-and-consent: with consent respected, track only while category 3 is on;
    // a choice about to reload starts nothing here: the reloaded page sends the page view (#one-page-view).
    // Started when it turns on, not on every change of the consent state: a loop that stopped by
    // itself (storing errors, daemontimeout, a refusal) stays stopped when a service is allowed
    let on = false;
    const gate = (): void => {
      if (config.respectConsent && !ctx.consent.allows(3)) {
        on = false;
        tracker.stop();
      } else if (!on && !ctx.consent.get().reloading) {
        on = true;
        tracker.start();
      }
    };
    lifetime.add(ctx.consent.subscribe(gate));
    gate();
  }

  // consent widget (banner, dialog, logging, blocking): the controller drives the UI it is given
  // started with the banner: release now what the categories allow among the elements parsed since
  const consent = started ?? (early ? startConsent(ctx, early, createConsentViewPort(ctx)) : null);
  if (started && early) settle(early.blocker.release(), log.error);

  const api = createApi(ctx, {
    tracker,
    consent,
    notify: ctx.notify,
    request: reporting(ctx.request, (error) => showPlatformError(ctx, error)),
    heatmap: heatmapHandle(ctx, ownScript),
    destroy() {
      lifetime.dispose();
      if (win.PagePulse === api) delete win.PagePulse;
      marker[INSTANCE] = false;
    },
  });
  win.PagePulse = api;
  ctx.emit('pagepulse:ready', { version: api.version });
  // the admin area's "open with heatmap" link (#pagepulse-heatmap, `=de` or `=en` for its panel's
  // language: a fragment, so the page's address, under which its clicks are stored, stays the
  // same): draw them once the layout is final
  if (win.location.hash.startsWith('#pagepulse-heatmap')) {
    const show = (): void => settle(api.heatmap.show(), log.error);
    if (ctx.doc.readyState === 'complete') show();
    else lifetime.listen(win, 'load', show);
  }
}
