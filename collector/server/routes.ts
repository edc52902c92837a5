import type { FormRef, Store, Visitor } from './db';
import { CATEGORY_NUMBERS, describeCategory } from './descriptions';
import { describeAgent } from './agent';
import { HttpError } from './http';
import { pageAddress, referrerHost, withoutFragment } from './page';
import { SESSION_COOKIE } from './session';
import type { Settings } from './settings';

/** A session counts as online for this many heartbeat intervals after its last beat (one lost beat is no exit)... */
export const PRESENCE_INTERVALS = 3;
/** ...but never less than this: a short refresh must not make visitors flicker in and out. */
export const PRESENCE_MIN_MS = 10_000;
/**
 * Presence heartbeats only feed the live counts, so they are kept this long (or the presence
 * window, when that is longer) and then deleted; page views are kept. Without it a visitor on a
 * 2 s refresh would add 1800 rows an hour, forever.
 */
export const PRESENCE_RETENTION_MS = 60 * 60 * 1000;
/** Longest text field accepted: a selector from `html` down a deep page runs to a few KiB, a URL to 2. */
const MAX_FIELD_CHARS = 8192;
/** Most selectors /api/clicks lists for a page: more is noise for a heatmap overlay. */
const MAX_CLICK_SELECTORS = 500;
/** Largest /api/clicks answer: under the bundle's 256 KiB answer limit (src/platform/request.ts). */
const MAX_CLICKS_ANSWER_CHARS = 192 * 1024;
/** com_ajax's keep-alive answer, verbatim. */
const KEEPALIVE_ANSWER = { success: true, message: null, messages: null, data: [] };

/** What one request gives a route. */
export interface RouteContext {
  store: Store;
  settings: Settings;
  /** The collector's clock, read once per request. */
  now: number;
  visitor: Visitor;
  /** Host header, named in the category descriptions. */
  host: string;
  /** The request's `Referer` header: for the bundle's same-origin heartbeat, the page itself. */
  referer: string | undefined;
  /** Query and form body together, the body winning: Joomla's input reads both. */
  params: URLSearchParams;
}

/** What a route answers; the app turns it into HTTP. */
export type Reply = { status?: number; json: unknown } | { status?: number; html: string };

/** A task of `/index.php`, found by `option` and `task`. */
export interface Task {
  method: 'GET' | 'POST';
  run(ctx: RouteContext): Reply | Promise<Reply>;
}

const OK: Reply = { json: { success: true } };

/** The `resource` values of a heatmap click that the collector stores (protocol section 4). */
const CLICK_RESOURCES: readonly string[] = ['heatmapclick', 'heatmap'];

/** The Joomla component tasks the bundle calls (protocol sections 3 to 6), keyed `option/task`. */
const TASKS: Record<string, Task> = {
  'com_jrealtimeanalytics/stream.display': {
    method: 'POST',
    async run({ store, settings, now, visitor, params, referer }) {
      const address = required(params, 'nowpage');
      const { page, utm } = pageAddress(address);
      // PHP's bool cast: only '' and '0' are false (the reason the bundle never sends 'false')
      const initialize = !['', '0'].includes(params.get('initialize') ?? '');
      await store.recordHeartbeat(
        visitor,
        {
          page,
          initialize,
          modules: wholeNumber(params, 'module_available') ?? 0,
          deviceWidth: wholeNumber(params, 'device_width'),
          deviceHeight: wholeNumber(params, 'device_height'),
          // what a page view brings along; the later beats of the page only say "still here"
          ...(initialize ? { utm, referrer: referrerHost(referer, address), agent: describeAgent(visitor.userAgent) } : {}),
        },
        now,
      );
      const windowMs = Math.max(PRESENCE_INTERVALS * settings.daemonrefresh * 1000, PRESENCE_MIN_MS);
      const presence = await store.presence(page, now - windowMs);
      await store.prunePresence(now - Math.max(windowMs, PRESENCE_RETENTION_MS), now);
      return {
        json: {
          configparams: settings,
          storing: [],
          loading: [],
          'data-bind': {
            users_onpage: String(presence.onPage),
            visitors: String(presence.online),
            users_logged: '0', // the demo has no logins
            users_total: String(presence.total),
          },
        },
      };
    },
  },
  'com_jrealtimeanalytics/stream.saveEntity': {
    method: 'POST',
    async run({ store, now, visitor, params }) {
      // `heatmapclick`: the original client and PagePulse now; `heatmap`: PagePulse's older call
      if (!CLICK_RESOURCES.includes(required(params, 'resource'))) throw new HttpError(400, 'unsupported resource');
      // past the visitor's share of the page the click is dropped, answered the same
      await store.recordClick(visitor, pageAddress(required(params, 'nowpage')).page, required(params, 'clicked_element'), now);
      return { json: { storing: [] } };
    },
  },
  'com_gdpr/user.processGenericCookieCategories': {
    method: 'POST',
    async run({ store, now, visitor, params }) {
      const value = oneOf(params, 'gdpr_generic_cookie_consent', ['0', '1']);
      await store.recordCookieConsent(visitor, null, value === '1', now);
      return OK;
    },
  },
  'com_gdpr/user.processCookieCategory': {
    method: 'POST',
    async run({ store, now, visitor, params }) {
      const category = Number(oneOf(params, 'gdpr_cookie_category', CATEGORY_NUMBERS.map(String)));
      // com_gdpr's state is "disabled": 0 means the category is on
      const disabled = oneOf(params, 'gdpr_cookie_category_state', ['0', '1']) === '1';
      await store.recordCookieConsent(visitor, category, !disabled, now);
      return OK;
    },
  },
  'com_gdpr/user.storeConsent': {
    method: 'POST',
    async run({ store, now, visitor, params }) {
      await store.storeFormConsent(visitor, formRef(params), formFields(params), now);
      return OK;
    },
  },
  'com_gdpr/user.deleteConsent': {
    method: 'POST',
    async run({ store, now, visitor, params }) {
      return { json: { success: true, deleted: await store.deleteFormConsent(visitor, formRef(params), now) } };
    },
  },
  'com_gdpr/user.getCookieCategoryDescription': {
    method: 'GET',
    run({ settings, host, params }) {
      const n = Number(oneOf(params, 'gdpr_cookie_category', CATEGORY_NUMBERS.map(String)));
      return { html: describeCategory(n, { host, sessionCookie: SESSION_COOKIE, refreshSeconds: settings.daemonrefresh })! };
    },
  },
  com_ajax: { method: 'GET', run: () => ({ json: KEEPALIVE_ANSWER }) },
};

/** The task a request to `/index.php` names, if the collector knows it. */
export function findTask(params: URLSearchParams): Task | undefined {
  const option = params.get('option');
  // com_ajax's keep-alive names no task
  const key = option === 'com_ajax' ? option : `${option}/${params.get('task')}`;
  return Object.hasOwn(TASKS, key) ? TASKS[key] : undefined;
}

/** Every task's key, `option/task` (or `com_ajax`): the privacy test walks them all. */
export const TASK_KEYS: readonly string[] = Object.keys(TASKS);

/**
 * The public read endpoints, keyed by path: only what the bundle's QA heatmap overlay needs, which
 * may run on another origin via the bookmarklet. Aggregate counts per selector, nothing per visitor
 * and no time of a single click; everything personal is behind the admin sign-in (admin/routes.ts).
 */
export const READS: Record<string, (ctx: RouteContext) => Promise<Reply>> = {
  '/api/clicks': async ({ store, params }) => {
    const page = pageAddress(required(params, 'page')).page;
    // never more than the bundle reads (it refuses answers over 256 KiB): whole entries up to 192 KiB,
    // an entry that does not fit any more is left out and the shorter ones after it still go in
    const clicks: Array<{ selector: string; count: number }> = [];
    let size = 0;
    for (const { selector, count } of await store.clicksOn(page, MAX_CLICK_SELECTORS)) {
      const entry = JSON.stringify(selector).length + 24;
      if (size + entry > MAX_CLICKS_ANSWER_CHARS) continue;
      size += entry;
      clicks.push({ selector, count });
    }
    return { json: { page, clicks } };
  },
};

function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value.trim() === '') throw new HttpError(400, `missing field: ${name}`);
  if (value.length > MAX_FIELD_CHARS) throw new HttpError(400, `field too long: ${name}`);
  return value;
}

function oneOf(params: URLSearchParams, name: string, allowed: readonly string[]): string {
  const value = required(params, name).trim();
  if (!allowed.includes(value)) throw new HttpError(400, `${name} must be one of ${allowed.join(', ')}`);
  return value;
}

/** A whole number field, or null when absent or empty. */
function wholeNumber(params: URLSearchParams, name: string): number | null {
  const value = params.get(name)?.trim();
  if (!value) return null;
  if (!/^\d{1,9}$/.test(value)) throw new HttpError(400, `${name} must be a whole number`);
  return Number(value);
}

function formRef(params: URLSearchParams): FormRef {
  const formId = params.get('formid')?.trim() ?? '';
  const formName = params.get('formname')?.trim() ?? '';
  if (!formId && !formName) throw new HttpError(400, 'missing field: formid or formname');
  if (formId.length > MAX_FIELD_CHARS || formName.length > MAX_FIELD_CHARS)
    throw new HttpError(400, 'field too long: formid or formname');
  // form consents keep their page's query (the proof names the page as sent) but not its fragment
  return { url: withoutFragment(required(params, 'url')), formId, formName };
}

/** `formfields[<label>]=<value>` pairs as one object (an own-keys-only object: labels come from the page). */
function formFields(params: URLSearchParams): Record<string, string> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of params) {
    const label = /^formfields\[(.+)\]$/.exec(key)?.[1];
    if (label) fields[label] = value;
  }
  return fields;
}
