import { createTokenBuckets } from '../edge/rate-limit';
import { MAX_FAILURES } from './auth';

/**
 * The sign-in's gate in memory, before any database work: the database's limiter (five failures a
 * minute per client or known browser, `admin_attempts`) is a write transaction on the writers' side,
 * shared with the heartbeats, so a flood of sign-ins paid one per request and slowed every beat
 * (20 to 100 times their median, docs/collector.md). Per process, on real time like the visitor
 * limits; the database still counts what passes, for every process on one PostgreSQL.
 */

/**
 * Per client (address prefix) or known browser: twice the database's limit, so that the database
 * decides (and says when to come back) for anyone who is not flooding.
 */
export const CLIENT_GATE = { burst: 2 * MAX_FAILURES, perSecond: (2 * MAX_FAILURES) / 60 };
/**
 * Every client without a known browser together, per process: the password checks take two at a
 * time (about 60 ms each) and turn the rest away, so more than this never got a check anyway.
 */
export const PROCESS_GATE = { burst: 40, perSecond: 20 };
/** Look-ups of device tokens this process does not know yet (a flood of made-up ones is a read each). */
export const DEVICE_LOOKUPS = { burst: 20, perSecond: 10 };
/** How long a known browser is remembered, and how many. */
const KNOWN_DEVICE_MS = 10 * 60 * 1000;
const KNOWN_DEVICES = 1000;

/** The gate of one process; `processGate` for every client together (PROCESS_GATE by default). */
export function createSignInGate(processGate = PROCESS_GATE) {
  const clients = createTokenBuckets(CLIENT_GATE.burst, CLIENT_GATE.perSecond);
  const everyone = createTokenBuckets(processGate.burst, processGate.perSecond, 1);
  const lookups = createTokenBuckets(DEVICE_LOOKUPS.burst, DEVICE_LOOKUPS.perSecond, 1);
  /** Device token hashes the database said are known, until when. */
  const devices = new Map<string, number>();

  return {
    /** Whether a device token (its hash) is a known browser as far as this process remembers. */
    knownDevice(hash: string, now: number): boolean {
      const until = devices.get(hash);
      if (until !== undefined && until < now) devices.delete(hash);
      return until !== undefined && until >= now;
    },
    /** Remember a known browser (the database said so, or it was just issued). */
    rememberDevice(hash: string, now: number): void {
      devices.delete(hash);
      devices.set(hash, now + KNOWN_DEVICE_MS);
      if (devices.size > KNOWN_DEVICES) devices.delete(devices.keys().next().value!);
    },
    /** Whether a device token this process does not remember may be looked up in the database. */
    mayLookUp: (now: number): boolean => lookups.take('all', now) === 0,
    /**
     * Take a slot for a sign-in of `key` (a known browser's, or a client's, which also takes one of
     * the process's); 0 when it may go on to the database, else the milliseconds to wait.
     */
    take(key: string, knownDevice: boolean, now: number): number {
      const wait = clients.take(key, now);
      if (wait > 0 || knownDevice) return wait;
      const all = everyone.take('all', now);
      if (all > 0) clients.giveBack(key);
      return all;
    },
    /** Give the key's slot back (a right password, or no check at all), as the database's. */
    giveBack: (key: string) => clients.giveBack(key),
  };
}
