import type { Step } from './retention';
import type { Reads, Sql } from './sql';
import type { Heartbeat, Presence, Visitor } from './types';
import { recordBeat, type BeatMark, type BeatOrder } from './visits-beat';
import { FILTERED_KEY } from './visits-filtered';
import { forgetAddressLabels, labelsGone } from './visits-labels';
import { visitTotals } from './visits-totals';

/**
 * The visits area: sessions (a visitor's browser session, stored as the SHA-256 of its cookie),
 * visits, page views, presence, and their day totals.
 *
 * - A **page view** is the first heartbeat of a page (`initialize=true`); its `last_at` moves with
 *   each later heartbeat of the page (time on page).
 * - A **visit** is a session's page views with no gap over 30 minutes (VISIT_GAP_MS), as Plausible,
 *   Matomo and Google Analytics count; it carries what the dashboard groups visits by: entry and
 *   exit page, the first page view's referrer (host, path, source name) and campaign, device,
 *   browser, operating system and window width, and the country of the first page view's address
 *   (its ISO code only). Issue-style additions are columns of `visits`, added by a migration.
 * - **Presence** rows (every heartbeat) feed only the live counts and go after an hour (or the
 *   presence window, if longer): pruned as heartbeats come, and by the hourly run with its own cutoff.
 */

/**
 * Presence rows only feed the live counts, so they are kept this long (or the presence window,
 * when that is longer) and then deleted; page views are kept. Without it a visitor on a 2 s
 * refresh would add 1800 rows an hour, forever.
 */
export const PRESENCE_RETENTION_MS = 60 * 60 * 1000;
/** How long presence rows are kept under a presence window of `windowMs`. */
export const presenceKeptMs = (windowMs: number): number => Math.max(windowMs, PRESENCE_RETENTION_MS);
/** How often presence rows are pruned, at most. */
const PRUNE_EVERY_MS = 60_000;
/** The total of sessions ever (a badge) is counted again at most this often: COUNT(*) is a scan. */
const TOTAL_EVERY_MS = 10_000;
/**
 * The sessions online (a badge) are counted again at most this often per process: every session
 * of the window is a row to read, and with 2,000 visitors online every beat read 2,000 rows.
 */
export const ONLINE_EVERY_MS = 1_000;
/** Arrivals kept for the next count to tell whether it had them (only while counts fail does the list grow). */
const ARRIVALS_KEPT = 10_000;
/** The visits area on an open database. */
export function visitsStore(sql: Sql, reads: Reads) {
  let prunedAt = Number.NEGATIVE_INFINITY;
  let total: { n: number; at: number; counting: Promise<number> | null } = { n: 0, at: Number.NEGATIVE_INFINITY, counting: null };
  /**
   * The last count of the sessions online: the window's start it was counted from, and when. Until
   * it is ONLINE_EVERY_MS old, a beat of a session not seen since that start (a new arrival) adds
   * one to it, one seen since is in it already; so an arrival is counted at once and a departure
   * within a second (the window itself is at least 10 s). Another process's arrivals are counted
   * at this one's next count. An arrival answered beside a count is added only if that count did
   * not see its write (`saw`, BeatOrder): taken as it came, one written before a count but answered
   * after it landed was counted twice, and one written after a count but answered before it landed
   * was lost, each until the next count.
   */
  let online: { n: number; since: number; at: number; saw: BeatOrder['saw'] } = {
    n: 0,
    since: Number.NEGATIVE_INFINITY,
    at: Number.NEGATIVE_INFINITY,
    saw: null,
  };
  /**
   * The arrivals added to `online.n` that its count did not see, by session: the next count may have
   * them, and a session's second beat at once (which read the same old `last_seen`) is not another.
   */
  const arrivals = new Map<string, BeatMark>();
  const countTotal = (at: number): Promise<number> => {
    if (at - total.at < TOTAL_EVERY_MS) return Promise.resolve(total.n);
    // while a count runs every beat answers the last one, the beat that started it too (a scan of a
    // large table takes a few hundred ms, and on the readers' side it waits behind whatever dashboard
    // read runs there: up to 1.9 s measured); only the first count of a process is waited for
    const first = total.at === Number.NEGATIVE_INFINITY;
    if (total.counting) return first ? total.counting : Promise.resolve(total.n);
    // on the readers' side: a count of every session is a scan
    total.counting = reads
      .get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions')
      .then((row) => {
        total = { n: row!.n, at, counting: null };
        return total.n;
      })
      .finally(() => {
        total.counting = null;
      });
    if (first) return total.counting;
    // a count that fails is tried again by the next beat (total.at stays); nobody waits for this one
    total.counting.catch(() => {});
    return Promise.resolve(total.n);
  };

  /** Sessions with a heartbeat since `since` (the admin's "online now"). */
  const onlineSince = async (since: number): Promise<number> =>
    (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE last_seen >= ?', [since]))!.n;

  return {
    ...visitTotals(reads, sql.engine),
    /**
     * Start the first count of the badge's total now (the collector opening, before the readers'
     * work it starts with): the first beat waits for the first count, and asked by that beat it
     * waited behind the month counts the totals' run starts with on the readers' side (about 1 s at
     * 1 M page views). A count that fails is asked again by the first beat.
     */
    startCounts(at: number): void {
      countTotal(at).catch(() => {});
    },
    /**
     * One heartbeat: the session, a presence row, and for a page view (`initialize`) the page view
     * in its visit (a new one after 30 minutes without a page view). A later beat moves its page
     * view's `last_at`. Writes that change a day before `lateBefore` (the start of the site's
     * today: possibly built already) are noted for the day totals. Answers the live counts: the
     * sessions seen on the page and on the site since `since`, and ever (counted again at most every 10 s).
     */
    async recordHeartbeat(visitor: Visitor, beat: Heartbeat, at: number, lateBefore: number, since: number): Promise<Presence> {
      // counted again once the last count is a second old (or the clock went back); the beats
      // meanwhile (its own statement in flight among them) keep the last one
      const recount = !(at >= online.at && at - online.at < ONLINE_EVERY_MS);
      if (recount) online.at = at;
      const counts = await recordBeat(sql, visitor, beat, { at, lateBefore, since, online: recount });
      if (counts.online !== null) {
        // the arrivals answered so far that this count did not see are online too
        const saw = counts.saw!;
        for (const [session, write] of arrivals) if (saw(write)) arrivals.delete(session);
        online = { n: counts.online + arrivals.size, since, at, saw };
      } else if (
        (counts.lastSeen === null || counts.lastSeen < online.since) &&
        !online.saw?.(counts.write) &&
        !arrivals.has(visitor.session)
      ) {
        online.n++;
        arrivals.set(visitor.session, counts.write);
        if (arrivals.size > ARRIVALS_KEPT) arrivals.delete(arrivals.keys().next().value!);
      }
      const onSite = Math.max(online.n, counts.onPage);
      // a new session is one more ever, counted at once (as an arrival is online): so it is in the
      // total it is answered while the count is not due or runs; the next count has it anyway
      if (counts.lastSeen === null && total.at !== Number.NEGATIVE_INFINITY) total.n++;
      // after the writes: a count started now has the new session too
      const ever = await countTotal(at);
      return { onPage: counts.onPage, online: onSite, total: Math.max(ever, onSite) };
    },
    /** Whether the session has a page view of `page`: a click belongs to one (the bundle records clicks after its first heartbeat). */
    viewed: async (session: string, page: string) =>
      (await sql.get('SELECT 1 AS found FROM page_views WHERE session_id = ? AND page = ? LIMIT 1', [session, page])) !==
      undefined,
    /** Delete presence rows older than `before`; at most once a minute of `at` (per process). Returns how many went. */
    async prunePresence(before: number, at: number): Promise<number> {
      if (at - prunedAt < PRUNE_EVERY_MS) return 0;
      prunedAt = at;
      return sql.run('DELETE FROM presence WHERE at < ?', [before]);
    },
    /** Sessions with a heartbeat since `since`, overall and per page (the 20 busiest). */
    async online(since: number) {
      const [online, pages] = await Promise.all([
        onlineSince(since),
        sql.all<{ page: string; visitors: number }>(
          'SELECT page, COUNT(DISTINCT session_id) AS visitors FROM presence WHERE at >= ? GROUP BY page ORDER BY visitors DESC, page LIMIT 20',
          [since],
        ),
      ]);
      return { online, pages };
    },

    /** The sessions whose pseudonym (first 12 hex characters) is `pseudonym`. */
    sessionsOf: async (pseudonym: string) =>
      (await sql.all<{ id: string }>('SELECT id FROM sessions WHERE id >= ? AND id < ?', [pseudonym, `${pseudonym}g`])).map(
        (r) => r.id,
      ),
    /** Delete everything of these sessions (inside the erasure's transaction); returns how many rows went. */
    async erase(tx: Sql, sessions: readonly string[]): Promise<number> {
      let records = 0;
      for (const session of sessions) {
        await forgetAddressLabels(tx, session);
        // the filtered month totals link a visit's labels: the months of its visits are counted again
        // without it (visits-filtered.ts); until then their filtered reads come from the rows
        await tx.run(
          `DELETE FROM stats_visits_by_built WHERE EXISTS (SELECT 1 FROM visits v WHERE v.session_id = ?
             AND v.last_view_at >= stats_visits_by_built.start_at AND v.started_at < stats_visits_by_built.end_at)`,
          [session],
        );
        for (const table of ['page_views', 'presence', 'visits'])
          records += await tx.run(`DELETE FROM ${table} WHERE session_id = ?`, [session]);
        records += await tx.run('DELETE FROM sessions WHERE id = ?', [session]);
      }
      return records;
    },
    /**
     * Retention: page views, then visits left without any, then sessions not seen since `before` and
     * left without a visit; presence rows older than `presenceBefore` (presenceKeptMs: an hour or the
     * window, not the visits' days). In steps of a few thousand rows (retention.ts).
     */
    retention: (before: number, presenceBefore: number): Step[] => [
      { name: 'pageViews', table: 'page_views', where: 'at < ?', params: [before] },
      {
        name: 'visits',
        table: 'visits',
        // by its start (indexed): a visit ends within hours of its start, its page views are gone by then
        where: 'started_at < ? AND NOT EXISTS (SELECT 1 FROM page_views p WHERE p.visit_id = visits.id)',
        params: [before],
      },
      { name: 'presence', table: 'presence', where: 'at < ?', params: [presenceBefore] },
      // the filtered month totals (they link a visit's labels) of a month whose rows are all gone, their
      // marker first; the rows of such a month: one that began over 32 days before (a month and a DST hour)
      { name: 'filteredTotals', table: 'stats_visits_by_built', where: 'end_at <= ?', params: [before] },
      {
        name: 'filteredTotals',
        table: 'stats_visits_by',
        where: 'start_at < ?',
        params: [before - 32 * 24 * 60 * 60 * 1000],
        key: FILTERED_KEY,
      },
      labelsGone(before),
      {
        name: 'sessions',
        table: 'sessions',
        where: 'last_seen < ? AND NOT EXISTS (SELECT 1 FROM visits v WHERE v.session_id = sessions.id)',
        params: [before],
      },
    ],
  };
}

export type VisitsStore = ReturnType<typeof visitsStore>;
