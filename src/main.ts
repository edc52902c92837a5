import { createApi, snapshot, type PagePulseApi } from './api';
import { readConfig } from './config';
import type { Context, Logger, PagePulseEvents } from './context';
import { createConsentStore } from './consent/store';
import { acceptsByCountry } from './consent/rules';
import { startConsentEarly, startConsentWidget, type ConsentEarly } from './consent/widget';
import { messages } from './i18n';
import { documentCookieJar } from './platform/cookies';
import { showPlatformError } from './platform/alerts';
import { startKeepalive } from './platform/keepalive';
import { createLifetime, type Lifetime } from './platform/lifetime';
import { createRequester, reporting } from './platform/request';
import { createTracker } from './tracker';
import { createDebugStore } from './ui/debug/store';
import { createNotifier } from './ui/notify';
import { watchDebugBox } from './ui/surfaces';

declare global {
  interface Window {
    /** The bundle's public API (protocol section 9). */
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
    boot(marker);
  }
} catch (error) {
  log.error('failed to start', error);
}

/** The QA overlay, loaded on first use; it reads from the collector the script came from. */
function heatmapHandle(ctx: Context): { show(): Promise<void>; hide(): void } {
  const collector = ctx.config.collector ?? scriptOrigin();
  let overlay: Promise<{ show(): Promise<void>; hide(): void }> | null = null;
  const load = () => (overlay ??= import('./ui/heatmap').then((m) => m.createHeatmapOverlay(ctx, collector)));
  return {
    show: () => load().then((o) => o.show()),
    hide: () => void overlay?.then((o) => o.hide()),
  };
}

function scriptOrigin(): string {
  try {
    return `${new URL(ownScript?.src || location.href).origin}/`;
  } catch {
    return '/';
  }
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
  const config = readConfig({ win: win as unknown as Window & Record<string, unknown>, doc, script: ownScript, warn: (m) => console.warn(m) });
  const t = messages(config.lang);
  const notifier = createNotifier({ doc, win, lifetime, log, t });
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
    debug: createDebugStore(config.debug),
    consent: createConsentStore(documentCookieJar(doc), config, (error) => log.error(error)),
    notify: (text, options) => notifier.notify(text, options),
    emit(name, detail) {
      let copy: unknown = detail;
      try {
        copy = typeof detail === 'object' && detail !== null ? JSON.parse(JSON.stringify(detail)) : detail;
      } catch {
        // keep the original when it cannot be copied
      }
      doc.dispatchEvent(new CustomEvent(name, { detail: copy }));
    },
  };

  lifetime.add(() => notifier.dispose());
  // before the DOM is ready: Consent Mode default and the blocking observer must precede other tags
  const early = config.consent ? startConsentEarly(ctx) : null;
  // a first visit shows the banner first: its module (and the UI library) evaluates now, while the
  // page still loads its deferred scripts and styles, not after DOMContentLoaded; the widget's own
  // import() then finds it evaluated and reports a failure
  if (early && !ctx.consent.get().chosen && !acceptsByCountry(config.country)) import('./ui/consent/view').catch(() => {});
  const run = (): void => {
    try {
      start(ctx, marker, early);
    } catch (error) {
      log.error('failed to start', error);
    }
  };
  whenReady(lifetime, run);
}

/** DOM ready: debug box watcher, tracker, consent widget, public API. */
function start(ctx: Context, marker: Record<symbol, unknown>, early: ConsentEarly | null): void {
  const { win, config, lifetime } = ctx;
  lifetime.add(watchDebugBox(ctx));
  lifetime.add(startKeepalive(ctx));

  const tracker = config.tracker ? createTracker(ctx) : null;
  if (tracker) {
    lifetime.add(() => tracker.dispose());
    // protocol section 10: with consent respected, track only while category 3 is on
    const gate = (): void => {
      if (!config.respectConsent || ctx.consent.allows(3)) tracker.start();
      else tracker.stop();
    };
    lifetime.add(ctx.consent.subscribe(gate));
    gate();
  }
  lifetime.add(ctx.consent.subscribe(() => ctx.emit('pagepulse:consent', snapshot(ctx.consent.get()) as never)));

  // consent widget (banner, dialog, logging, blocking)
  const consentUi = early ? startConsentWidget(ctx, early) : null;
  if (consentUi) lifetime.add(() => consentUi.dispose());

  const api = createApi(ctx, {
    tracker,
    consentUi,
    notify: ctx.notify,
    request: reporting(ctx.request, (error) => showPlatformError(ctx, error)),
    heatmap: heatmapHandle(ctx),
    destroy() {
      lifetime.dispose();
      if (win.PagePulse === api) delete win.PagePulse;
      marker[INSTANCE] = false;
    },
  });
  win.PagePulse = api;
  ctx.emit('pagepulse:ready', { version: api.version });
}
