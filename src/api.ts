import { CATEGORY_IDS, type CategoryId } from './config';
import type { ConsentSnapshot, Context, NotifyOptions } from './context';
import type { ConsentState } from './consent/store';
import { attempt } from './platform/guard';
import type { RequestOptions, RequestResult } from './platform/request';

/** Deepest nesting the fallback copy follows; event details are small, flat server data. */
const MAX_COPY_DEPTH = 32;

/** `window.PagePulse` (docs/protocol.md#public-api). */
export interface PagePulseApi {
  readonly version: string;
  /** 'react' or 'lite' (preact's core and hooks behind our React-named shims, src/ui/lite/). */
  readonly build: string;
  consent: {
    /** The current choice: `{ status, categories: {1: true, 2: true, 3: false, 4: false}, chosen, services, id }`. */
    get(): ConsentSnapshot;
    /** Set categories as if the visitor saved them in the dialog. */
    set(categories: Partial<Record<CategoryId, boolean>>): void;
    /** Open the settings dialog. */
    open(): void;
    /** Withdraw consent: Notwendig only, no service, their cookies cleared, logged as a decline. */
    revoke(): void;
  };
  tracker: { start(): void; stop(): void; running(): boolean };
  /** Turn the debug box on or off; returns whether it is on. */
  debug(on?: boolean): boolean;
  notify(text: string, options?: NotifyOptions): void;
  /** Joomla.request semantics (CSRF token, timeout); a failure is shown as an error alert and returned. */
  request<T = unknown>(options: RequestOptions): Promise<RequestResult<T>>;
  heatmap: { show(): Promise<void>; hide(): void };
  /** Remove every listener, timer, observer and host element of the bundle. */
  destroy(): void;
}

/** What the features hand to the API; a missing feature (turned off) degrades to a warning. */
export interface ApiHandles {
  tracker: { start(): void; stop(): void; running(): boolean } | null;
  consent: { open(): void; revoke(): void; set(categories: Partial<Record<CategoryId, boolean>>): void } | null;
  notify: ((text: string, options?: NotifyOptions) => void) | null;
  /** The alerting request helper. */
  request: <T>(options: RequestOptions) => Promise<RequestResult<T>>;
  heatmap: { show(): Promise<void>; hide(): void } | null;
  destroy(): void;
}

/** Build the public API; every method is guarded so a caller's mistake never throws into the page. */
export function createApi(ctx: Context, handles: ApiHandles): PagePulseApi {
  const guard =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R, fallback: R) =>
    (...args: A): R =>
      attempt(
        () => fn(...args),
        (error) => ctx.log.error(`PagePulse.${name} failed`, error),
        fallback,
      );
  const missing = (what: string) => () => ctx.log.warn(`${what} is off on this page`);

  return {
    version: __PAGEPULSE_VERSION__,
    build: __PAGEPULSE_BUILD__,
    consent: {
      get: guard('consent.get', () => snapshot(ctx.consent.get()), {
        status: null,
        categories: { 1: true, 2: false, 3: false, 4: false },
        chosen: false,
        id: null,
        services: [],
      }),
      set: guard(
        'consent.set',
        (categories: Partial<Record<CategoryId, boolean>>) => {
          if (!categories || typeof categories !== 'object') throw new TypeError('expected an object like {3: true}');
          if (handles.consent) handles.consent.set(categories);
          else ctx.consent.choose('allow', categories);
        },
        undefined,
      ),
      open: guard('consent.open', () => (handles.consent?.open ?? missing('the consent widget'))(), undefined),
      // withdraws consent (as a decline: Notwendig only, no service, their cookies cleared, logged);
      // open() shows the banner with the current choice
      revoke: guard('consent.revoke', () => (handles.consent?.revoke ?? missing('the consent widget'))(), undefined),
    },
    tracker: {
      start: guard(
        'tracker.start',
        () => {
          if (!handles.tracker) return missing('the tracker')();
          if (ctx.config.respectConsent && !ctx.consent.allows(3)) {
            ctx.log.warn('tracker.start() refused: category 3 (Statistiken) is not accepted');
            return;
          }
          handles.tracker.start();
        },
        undefined,
      ),
      stop: guard('tracker.stop', () => handles.tracker?.stop(), undefined),
      running: guard('tracker.running', () => handles.tracker?.running() ?? false, false),
    },
    debug: guard(
      'debug',
      (on?: boolean) => {
        if (on !== undefined) ctx.debug.setEnabled(Boolean(on));
        return ctx.debug.get().enabled;
      },
      false,
    ),
    notify: guard(
      'notify',
      (text: string, options?: NotifyOptions) => {
        if (handles.notify) handles.notify(String(text), options);
        else ctx.log.info(String(text));
      },
      undefined,
    ),
    request: <T>(options: RequestOptions): Promise<RequestResult<T>> => {
      if (!options || typeof options !== 'object' || typeof options.url !== 'string') {
        ctx.log.warn('PagePulse.request needs an object with a url');
        return Promise.resolve({ ok: false, error: { kind: 'abort', status: 0, detail: 'no url' } });
      }
      return handles.request<T>(options);
    },
    heatmap: {
      show: guard(
        'heatmap.show',
        () => (handles.heatmap ? handles.heatmap.show() : Promise.resolve(missing('the heatmap overlay')())),
        Promise.resolve(),
      ),
      hide: guard('heatmap.hide', () => handles.heatmap?.hide(), undefined),
    },
    destroy: guard('destroy', () => handles.destroy(), undefined),
  };
}

/** A detached copy, so callers cannot change the store's state through it. */
export function snapshot(state: ConsentState): ConsentSnapshot {
  const categories = {} as Record<CategoryId, boolean>;
  for (const id of CATEGORY_IDS) categories[id] = state.categories[id];
  return { status: state.status, categories, chosen: state.chosen, services: [...state.services], id: state.id };
}

/** `Context.emit`: dispatch a `pagepulse:*` event on `doc` with a detached copy of the detail. */
export function createEmitter(doc: Document): Context['emit'] {
  return (name, detail) => {
    doc.dispatchEvent(new CustomEvent(name, { detail: detach(detail) }));
  };
}

/**
 * A copy a page's listener cannot use to change our state: structuredClone, or where it is missing
 * (or refuses a value) a copy of the own enumerable data. Never a JSON round trip: a page that
 * patches `Array.prototype.toJSON` (old Prototype.js) would garble it.
 */
export function detach<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return copyPlain(value, 0) as T;
  }
}

function copyPlain(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_COPY_DEPTH) return value;
  // own keys only: an array's indices, never what a page added to a prototype
  const copy = (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
  for (const key of Object.keys(value)) copy[key] = copyPlain((value as Record<string, unknown>)[key], depth + 1);
  return copy;
}
