import type { CategoryId, Config } from '../config';
import type { Requester } from '../platform/request';
import { encodeForm } from '../platform/encode';
import { gdprUrl } from './endpoints';
import { readItem, writeItem, type SafeStorage } from './storage';

/** Where undelivered consent logs wait for the next page. */
export const QUEUE_KEY = 'pagepulse.consentlog';
/** At most this many records are kept: a site whose log endpoint is gone must not fill storage. */
const MAX_QUEUED = 50;

/** One log call: address and form body, ready to send again as they were. */
export interface LogEntry {
  url: string;
  body: string;
}

/** The log calls for a choice (protocol section 5): the generic one, then one per changed category. */
export function logEntries(
  config: Pick<Config, 'base'>,
  generic: boolean,
  changed: ReadonlyArray<[CategoryId, boolean]>,
): LogEntry[] {
  return [
    {
      url: gdprUrl(config.base, 'processGenericCookieCategories'),
      body: encodeForm([['gdpr_generic_cookie_consent', generic ? 1 : 0]]),
    },
    ...changed.map(([id, on]) => ({
      url: gdprUrl(config.base, 'processCookieCategory'),
      // com_gdpr's state: 0 = enabled, 1 = disabled
      body: encodeForm([
        ['gdpr_cookie_category', id],
        ['gdpr_cookie_category_state', on ? 0 : 1],
      ]),
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

/** Replace the stored queue (the newest MAX_QUEUED entries). */
export function writeQueue(storage: SafeStorage | null, entries: readonly LogEntry[]): void {
  // storage full or forbidden: the records of this page are still sent once
  writeItem(
    storage,
    QUEUE_KEY,
    entries.length === 0
      ? null
      : entries
          .slice(-MAX_QUEUED)
          .map((e) => `${e.url}\t${e.body}`)
          .join('\n'),
  );
}

/**
 * Send entries with keepalive (they must survive the reload after a choice). Each entry is queued
 * BEFORE it is sent and removed once the server answered, so a record is lost neither to a failing
 * server nor to a reload that comes first; at worst a slow answer means one duplicate later.
 */
export function deliver(request: Requester, storage: SafeStorage | null, entries: readonly LogEntry[]): Promise<void> {
  if (entries.length === 0) return Promise.resolve();
  writeQueue(storage, [...readQueue(storage), ...entries]);
  return send(request, storage, entries);
}

/** Re-send what earlier pages could not deliver. */
export function flushQueue(request: Requester, storage: SafeStorage | null): Promise<void> {
  return send(request, storage, readQueue(storage));
}

async function send(request: Requester, storage: SafeStorage | null, entries: readonly LogEntry[]): Promise<void> {
  await Promise.all(
    entries.map(async (entry) => {
      const result = await request({ url: entry.url, data: entry.body, keepalive: true, responseType: 'text' });
      if (result.ok) writeQueue(storage, removeOne(readQueue(storage), entry));
    }),
  );
}

function removeOne(entries: LogEntry[], entry: LogEntry): LogEntry[] {
  const index = entries.findIndex((e) => e.url === entry.url && e.body === entry.body);
  return index < 0 ? entries : [...entries.slice(0, index), ...entries.slice(index + 1)];
}
