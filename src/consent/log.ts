import type { CategoryId, Config } from '../config';
import type { Messages } from '../i18n';
import type { CookieJar } from '../platform/cookies';
import type { RequestError, Requester } from '../platform/request';
import { encodeForm } from '../platform/encode';
import { gdprUrl } from './endpoints';
import { readItem, writeItem, type SafeStorage } from './storage';
import { CONSENT_DAYS } from './store';

/** Where undelivered consent logs wait for the next page. */
export const QUEUE_KEY = 'pagepulse.consentlog';
/**
 * Set while a queue is stored (docs/protocol.md#consent-log): a page without it never opens
 * localStorage, whose first access costs a return visit milliseconds. Notwendig, like the consent cookies.
 */
export const QUEUE_COOKIE = 'pagepulse_q';
/** At most this many records are kept: a site whose log endpoint is gone must not fill storage. */
const MAX_QUEUED = 50;

/** Where the queue lives: the storage, and the cookies that hold its marker. */
export interface LogQueue {
  storage: SafeStorage | null;
  cookies: Pick<CookieJar, 'get' | 'set' | 'remove'>;
  /** Told when the server refused a log call for good (a site without com_gdpr answers 404). */
  refused?: (error: RequestError) => void;
}

/**
 * Whether a failed log call is final: the server answered 4xx (a Joomla site without com_gdpr
 * answers its tasks 404), which no retry changes; 408 and 429 ask for a later try, and network
 * failures and 5xx may pass. A final entry is dropped, never sent again.
 */
export const isFinal = (error: RequestError): boolean =>
  error.kind === 'http' && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;

/** One log call: address and form body, ready to send again as they were. */
export interface LogEntry {
  url: string;
  body: string;
}

/** Whether an address is one of the log calls (their tasks are the only com_gdpr `process*` ones). */
export const isLogCall = (url: string): boolean => url.includes('task=user.process');

/**
 * What a choice agreed to (docs/protocol.md#consent-log, our fields; com_gdpr ignores fields it
 * does not read): the consent ID on every call, the rest with the generic one.
 */
export interface ConsentRecord {
  id: string;
  /** The categories on, `1.2.3`. */
  categories: string;
  /** The services allowed on their own, `youtube.vimeo`. */
  services: string;
  revision: number;
  /** A version of the banner text the visitor saw (texts.ts `textVersion`). */
  text: string;
}

/** The log calls for a choice (protocol section 5): the generic one, then one per changed category. */
export function logEntries(
  config: Pick<Config, 'base'>,
  generic: boolean,
  changed: ReadonlyArray<[CategoryId, boolean]>,
  record?: ConsentRecord,
): LogEntry[] {
  const id: Array<[string, string]> = record ? [['consent_id', record.id]] : [];
  return [
    {
      url: gdprUrl(config.base, 'processGenericCookieCategories'),
      body: encodeForm([
        ['gdpr_generic_cookie_consent', generic ? 1 : 0],
        ...id,
        ...(record
          ? ([
              ['consent_categories', record.categories],
              ['consent_services', record.services],
              ['consent_revision', record.revision],
              ['consent_text', record.text],
            ] as const)
          : []),
      ]),
    },
    ...changed.map(([category, on]) => ({
      url: gdprUrl(config.base, 'processCookieCategory'),
      // com_gdpr's state: 0 = enabled, 1 = disabled
      body: encodeForm([['gdpr_cookie_category', category], ['gdpr_cookie_category_state', on ? 0 : 1], ...id]),
    })),
  ];
}

/**
 * Entries are stored as `url TAB body` lines, not JSON: the values are form-encoded (no tabs or
 * newlines can occur), and a page that patched Array.prototype.toJSON cannot garble them.
 */
export function readQueue(storage: SafeStorage | null): LogEntry[] {
  return (readItem(storage, QUEUE_KEY) ?? '')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((parts) => parts.length === 2 && parts[0]!.length > 0)
    .map(([url, body]) => ({ url: url!, body: body! }));
}

/** Replace the stored queue (the newest MAX_QUEUED entries), and set or clear its marker. */
export function writeQueue({ storage, cookies }: LogQueue, entries: readonly LogEntry[]): void {
  const text = entries
    .slice(-MAX_QUEUED)
    .map((e) => `${e.url}\t${e.body}`)
    .join('\n');
  // storage full or forbidden: the records of this page are still sent once; the marker then
  // promises a queue there is none of, and the next page's flushQueue clears it
  writeItem(storage, QUEUE_KEY, text || null);
  // 365 days like the consent cookies: a queue that outlives its marker goes with the next choice's log
  if (text) cookies.set(QUEUE_COOKIE, '1', CONSENT_DAYS);
  else cookies.remove(QUEUE_COOKIE);
}

/**
 * Send entries with keepalive (they must survive the reload after a choice). Each entry is queued
 * BEFORE it is sent and removed once the server answered, so a record is lost neither to a failing
 * server nor to a reload that comes first; at worst a slow answer means one duplicate later.
 * `all`: send the whole queue, the older entries too (flushQueue).
 */
export function deliver(request: Requester, queue: LogQueue, entries: readonly LogEntry[], all?: boolean): Promise<void> {
  const queued = [...readQueue(queue.storage), ...entries];
  writeQueue(queue, queued);
  return send(request, queue, all ? queued : entries);
}

/**
 * Re-send what earlier pages could not deliver; without the marker, storage is not opened at all.
 * With it, the queue is written back as read: a marker without a queue (storage refused, or
 * cleared by the visitor) is dropped, so the next page does not look again.
 */
export const flushQueue = (request: Requester, queue: LogQueue): Promise<void> =>
  queue.cookies.get(QUEUE_COOKIE) ? deliver(request, queue, [], true) : Promise.resolve();

async function send(request: Requester, queue: LogQueue, entries: readonly LogEntry[]): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      const result = await request({ url: entry.url, data: entry.body, keepalive: true, responseType: 'text' });
      const final = !result.ok && isFinal(result.error);
      if (result.ok || final) writeQueue(queue, removeOne(readQueue(queue.storage), entry));
      if (final) queue.refused?.(result.error);
    }),
  );
}

function removeOne(entries: LogEntry[], entry: LogEntry): LogEntry[] {
  const index = entries.findIndex((e) => e.url === entry.url && e.body === entry.body);
  return index < 0 ? entries : [...entries.slice(0, index), ...entries.slice(index + 1)];
}

/**
 * A version of the banner text a visitor answered (sent with the consent log): a 32-bit
 * hash (Java's String.hashCode) of the language and every text the banner shows, in base 36. A site that changes its wording, or a
 * release that changes the built-in text, gives a new version.
 */
export function textVersion(config: Config, t: Messages): string {
  let hash = 0;
  for (const c of [
    config.lang,
    config.headerText ?? t.consentTitle,
    config.messageText ?? t.consentText,
    config.cookieSettingsDesc,
    config.denyText ?? t.consentDecline,
    config.allowText ?? t.consentAcceptAll,
  ].join('\n'))
    hash = Math.imul(hash, 31) + c.charCodeAt(0);
  return (hash >>> 0).toString(36);
}
