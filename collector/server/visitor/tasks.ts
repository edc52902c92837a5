import { HttpError } from '../edge/http';
import { presenceKeptMs, type ClicksStore, type ConsentsStore, type FormRef, type Visitor, type VisitsStore } from '../store';
import { describeAgent } from './agent';
import { presenceWindowMs, type Settings } from './config';
import { CATEGORY_NUMBERS, describeCategory } from './descriptions';
import { pageAddress, referralOf, withoutFragment } from './page';
import { SESSION_COOKIE } from './session';

/** Longest text field accepted: a selector from `html` down a deep page runs to a few KiB, a URL to 2. */
export const MAX_FIELD_CHARS = 8192;
/** com_ajax's keep-alive answer, verbatim. */
const KEEPALIVE_ANSWER = { success: true, message: null, messages: null, data: [] };
/**
 * A consent ID (protocol section 5): random, at least 96 bits. 16 to 64 characters of base64url
 * (16 of them are 96 bits); one of only hexadecimal digits needs 24 (4 bits each).
 */
const CONSENT_ID = /^[A-Za-z0-9_-]{16,64}$/;
const HEX_ONLY = /^[0-9a-fA-F]+$/;

/** The consent ID of a log call, null when it carries none; 400 when it is not a random ID of at least 96 bits. */
export function consentIdOf(params: URLSearchParams): string | null {
  const value = params.get('consent_id');
  if (value === null || value === '') return null;
  if (!CONSENT_ID.test(value) || (HEX_ONLY.test(value) && value.length < 24))
    throw new HttpError(400, 'consent_id must be a random ID of at least 96 bits (16 to 64 base64url characters)');
  return value;
}

/** What one request gives a task. */
export interface TaskContext {
  visits: VisitsStore;
  clicks: ClicksStore;
  consents: ConsentsStore;
  settings: Settings;
  /** The collector's clock, read once per request. */
  now: number;
  /** The start of the site's today: writes that land before it may change a day already counted. */
  todayStart: number;
  visitor: Visitor;
  /** Host header, named in the category descriptions. */
  host: string;
  /**
   * The country of the client's full address (edge/country.ts), looked up when asked: only a page
   * view keeps it, and only as the country's code.
   */
  country(): string | null;
  /** Query and form body together, the body winning: Joomla's input reads both. */
  params: URLSearchParams;
  /** Whether a page address belongs to the site (its own origin or PAGEPULSE_SITES). */
  ofSite(address: string): boolean;
  /** A click on `page` was stored (the overlay's kept answer is asked again). */
  clicked(page: string): void;
}

/** What a task answers; the feature turns it into HTTP (`jsonText`: JSON already written, kept and sent again). */
export type Reply =
  { status?: number; json: unknown } | { status?: number; html: string } | { status?: number; jsonText: string };

/** A task of `/index.php`, found by `option` and `task`. */
export interface Task {
  method: 'GET' | 'POST';
  run(ctx: TaskContext): Reply | Promise<Reply>;
}

const OK: Reply = { json: { success: true } };

/** The `resource` values of a heatmap click that the collector stores (protocol section 4). */
const CLICK_RESOURCES: readonly string[] = ['heatmapclick', 'heatmap'];

/** A page address of the site, normalised (page.ts); 403 for another site's. */
function sitePage(ctx: TaskContext, name: string): ReturnType<typeof pageAddress> {
  const address = required(ctx.params, name);
  if (!ctx.ofSite(address)) throw new HttpError(403, `${name} is not a page of this site`);
  return pageAddress(address);
}

/** The Joomla component tasks the bundle calls (protocol sections 3 to 6), keyed `option/task`. */
const TASKS: Record<string, Task> = {
  'com_jrealtimeanalytics/stream.display': {
    method: 'POST',
    async run(ctx) {
      const { visits, settings, now, visitor, params, todayStart } = ctx;
      const address = required(params, 'nowpage');
      const { page, utm } = sitePage(ctx, 'nowpage');
      // PHP's bool cast: only '' and '0' are false (the reason the bundle never sends 'false')
      const initialize = !['', '0'].includes(params.get('initialize') ?? '');
      // a page with the statistics module (its badges): the live counts go into each answer
      const badges = (wholeNumber(params, 'module_available') ?? 0) > 0;
      const windowMs = presenceWindowMs(settings);
      const presence = await visits.recordHeartbeat(
        visitor,
        {
          page,
          initialize,
          deviceWidth: wholeNumber(params, 'device_width'),
          deviceHeight: wholeNumber(params, 'device_height'),
          // what a page view brings along; the later beats of the page only say "still here". The
          // referrer is the bundle's field, never the request's Referer header: the heartbeat is a
          // same-origin POST, whose Referer is the page itself
          ...(initialize
            ? {
                utm,
                referrer: referralOf(params.get('referrer'), address),
                agent: describeAgent(visitor.userAgent),
                country: ctx.country(),
              }
            : {}),
        },
        now,
        todayStart,
        now - windowMs,
      );
      await visits.prunePresence(now - presenceKeptMs(windowMs), now);
      // answered as the real component answers (fixtures/real-server): the settings with a page
      // view's first beat only, the counts only to a page with the badges; a later beat of a page
      // without them gets `[]`
      const counts = badges
        ? {
            'data-bind': {
              users_onpage: String(presence.onPage),
              visitors: String(presence.online),
              users_logged: '0', // the demo has no logins
              users_total: String(presence.total),
            },
          }
        : null;
      return { json: initialize ? { configparams: settings, ...counts } : (counts ?? []) };
    },
  },
  'com_jrealtimeanalytics/stream.saveEntity': {
    method: 'POST',
    async run(ctx) {
      const { visits, clicks, now, visitor, params, clicked } = ctx;
      // `heatmapclick`: the original client and PagePulse now; `heatmap`: PagePulse's older call
      if (!CLICK_RESOURCES.includes(required(params, 'resource'))) throw new HttpError(400, 'unsupported resource');
      const { page } = sitePage(ctx, 'nowpage');
      const selector = required(params, 'clicked_element');
      // a click belongs to a page view of its session (the bundle records clicks after its first
      // heartbeat): a call without a session cookie, or of a page the session never viewed, is
      // answered the same and not stored. Past the session's share of the page, neither.
      if ((await visits.viewed(visitor.session, page)) && (await clicks.record(visitor.session, page, selector, now)))
        clicked(page);
      // the real component's answer to a click, stored or not
      return { json: [] };
    },
  },
  'com_gdpr/user.processGenericCookieCategories': {
    method: 'POST',
    async run({ consents, now, visitor, params }) {
      const value = oneOf(params, 'gdpr_generic_cookie_consent', ['0', '1']);
      await consents.recordCookieConsent(visitor, null, value === '1', consentIdOf(params), now);
      return OK;
    },
  },
  'com_gdpr/user.processCookieCategory': {
    method: 'POST',
    async run({ consents, now, visitor, params }) {
      const category = Number(oneOf(params, 'gdpr_cookie_category', CATEGORY_NUMBERS.map(String)));
      // com_gdpr's state is "disabled": 0 means the category is on
      const disabled = oneOf(params, 'gdpr_cookie_category_state', ['0', '1']) === '1';
      await consents.recordCookieConsent(visitor, category, !disabled, consentIdOf(params), now);
      return OK;
    },
  },
  'com_gdpr/user.storeConsent': {
    method: 'POST',
    async run(ctx) {
      await ctx.consents.storeFormConsent(ctx.visitor, formRef(ctx), formFields(ctx.params), ctx.now);
      return OK;
    },
  },
  'com_gdpr/user.deleteConsent': {
    method: 'POST',
    async run(ctx) {
      return { json: { success: true, deleted: await ctx.consents.deleteFormConsent(ctx.visitor, formRef(ctx), ctx.now) } };
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

export function required(params: URLSearchParams, name: string): string {
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

function formRef(ctx: TaskContext): FormRef {
  const { params } = ctx;
  const formId = params.get('formid')?.trim() ?? '';
  const formName = params.get('formname')?.trim() ?? '';
  if (!formId && !formName) throw new HttpError(400, 'missing field: formid or formname');
  if (formId.length > MAX_FIELD_CHARS || formName.length > MAX_FIELD_CHARS)
    throw new HttpError(400, 'field too long: formid or formname');
  const url = required(params, 'url');
  if (!ctx.ofSite(url)) throw new HttpError(403, 'url is not a page of this site');
  // form consents keep their page's query (the proof names the page as sent) but not its fragment
  return { url: withoutFragment(url), formId, formName };
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
