import { HttpError } from '../edge/http';
import type { ClicksStore } from '../store';
import { pageAddress } from './page';
import type { Reply } from './tasks';
import { MAX_FIELD_CHARS } from './tasks';

/**
 * `GET /api/clicks?page=<url>`: the QA heatmap overlay's read, public (no sign-in; CORS `*` for the
 * bookmarklet on another origin). Only `{selector, count}` per selector, nothing per visitor.
 * Bounded three ways: the store answers from day totals plus today's clicks (clicks.ts), the answer
 * of a page is kept and shared (one query per page at a time; after a new click the next read
 * counts again, at most once a second, else every 30 s), and each client has a rate (CLICKS_READ_RATE).
 */

/** Most selectors listed for a page: more is noise for a heatmap overlay. */
const MAX_CLICK_SELECTORS = 500;
/** Largest answer: under the bundle's 256 KiB answer limit (src/platform/request.ts). */
const MAX_CLICKS_ANSWER_CHARS = 192 * 1024;
/** A page's answer is used again for this long... */
const FRESH_MS = 30_000;
/** ...unless a click on the page arrived since; then it is counted again, at most once in this long (a flood of clicks does not make every read a query). */
const AFTER_CLICK_MS = 1000;
/** Pages whose answers are kept (the least recently asked for go first). */
const MAX_PAGES = 100;
/** Reads per client (address prefix): the overlay reads once per page load. */
export const CLICKS_READ_RATE = { burst: 120, perSecond: 20 } as const;

interface Kept {
  answer: Promise<Reply>;
  /** When it was asked for (wall clock), for FRESH_MS. */
  at: number;
  /** When its count starts (monotonic clock), for AFTER_CLICK_MS. */
  counted: number;
  stale: boolean;
}

/** The overlay's read with its cache, on the clicks store. */
export function createClickReads(clicks: ClicksStore) {
  const kept = new Map<string, Kept>();

  async function count(page: string): Promise<Reply> {
    // whole entries up to 192 KiB: an entry that does not fit any more is left out and the shorter ones after it still go in
    const listed: Array<{ selector: string; count: number }> = [];
    let size = 0;
    for (const { selector, clicks: n } of await clicks.onPage(page, MAX_CLICK_SELECTORS)) {
      const entry = JSON.stringify(selector).length + 24;
      if (size + entry > MAX_CLICKS_ANSWER_CHARS) continue;
      size += entry;
      listed.push({ selector, count: Number(n) });
    }
    return { jsonText: JSON.stringify({ page, clicks: listed }) };
  }

  return {
    /** The answer for the `page` parameter (a page of the site: `ofSite`), at wall-clock `now`. */
    answer(raw: string | null, ofSite: (address: string) => boolean, now: number): Promise<Reply> {
      if (raw === null || raw.trim() === '') throw new HttpError(400, 'missing field: page');
      if (raw.length > MAX_FIELD_CHARS) throw new HttpError(400, 'field too long: page');
      if (!ofSite(raw)) throw new HttpError(403, 'page is not a page of this site');
      const { page } = pageAddress(raw);
      const entry = kept.get(page);
      if (entry && !entry.stale && now - entry.at < FRESH_MS) {
        kept.delete(page);
        kept.set(page, entry);
        return entry.answer;
      }
      // after a click, the next read counts again, but a page is counted at most once per
      // AFTER_CLICK_MS: a read sooner waits for that count (shared by every read meanwhile) instead
      // of being answered without the click it may have just made
      // (measured on the process's monotonic clock: it is a real wait, whatever `now` says)
      const wait = entry ? Math.max(0, entry.counted + AFTER_CLICK_MS - performance.now()) : 0;
      const fresh: Kept = {
        answer: wait ? new Promise<void>((done) => setTimeout(done, wait).unref()).then(() => count(page)) : count(page),
        at: now,
        counted: performance.now() + wait,
        stale: false,
      };
      // a failed read is not kept
      fresh.answer.catch(() => kept.get(page) === fresh && kept.delete(page));
      kept.delete(page);
      kept.set(page, fresh);
      if (kept.size > MAX_PAGES) kept.delete(kept.keys().next().value!);
      return fresh.answer;
    },
    /** A click on `page` was stored: its answer is asked again (at most every AFTER_CLICK_MS). */
    clicked(page: string): void {
      const entry = kept.get(page);
      // a count that has not started yet will include it
      if (entry && entry.counted <= performance.now()) entry.stale = true;
    },
  };
}
