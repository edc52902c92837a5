/**
 * A token bucket per key (a client address): `burst` requests at once, refilled at `perSecond`.
 * Memory only and per process (with N processes a client gets N times the rate); bounded: at most
 * `maxKeys` buckets, the least recently used dropped first (a dropped bucket is a full one, which
 * only ever favours the client). Time comes from the caller, so tests can move it.
 */
export function createTokenBuckets(burst: number, perSecond: number, maxKeys = 50_000) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** Take one token; 0 when allowed, else the milliseconds until one is back. */
    take(key: string, now: number): number {
      const bucket = buckets.get(key) ?? { tokens: burst, at: now };
      buckets.delete(key); // re-inserted: the map's order is the order of last use
      // never less after a backward clock step (NTP, a VM's correction): refilled by what went forward only
      bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
      const allowed = bucket.tokens >= 1;
      if (allowed) bucket.tokens -= 1;
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      return allowed ? 0 : Math.ceil(((1 - bucket.tokens) / perSecond) * 1000);
    },
    /** Give a token back (a request that turned out not to count); nothing for a key without a bucket. */
    giveBack(key: string): void {
      const bucket = buckets.get(key);
      if (bucket) bucket.tokens = Math.min(burst, bucket.tokens + 1);
    },
    get size(): number {
      return buckets.size;
    },
  };
}

/**
 * Visitor writes (heartbeats, clicks, consent logs, form consents) per client address: a burst of
 * 120 and 20 a second. A visitor's tab sends one heartbeat every `daemonrefresh` seconds (2 by
 * default) and a click now and then; 20 a second is an office of about 40 people behind one NAT
 * address each with a tab open, and the burst covers a page load of several tabs at once. Past it
 * the answer is 429 with Retry-After, which the bundle's heartbeat treats as transient (it backs
 * off and resumes). PAGEPULSE_VISITOR_RATE / PAGEPULSE_VISITOR_BURST change it.
 */
export const VISITOR_RATE = { burst: 120, perSecond: 20 } as const;
