import type { IncomingMessage } from 'node:http';
import { limitKey } from '../edge/address';
import { clientAddress, isHttps, readCookie, sameOrigin } from '../edge/client';
import type { AdminStore, SettingsStore } from '../store';
import {
  ADMIN_COOKIE,
  DEVICE_COOKIE,
  MAX_FAILURES,
  createChecks,
  deviceCookie,
  generatedPassword,
  hashPassword,
  newToken,
  sessionCookie,
  tokenHash,
  verifyPassword,
  weakPassword,
} from './auth';
import { createSignInGate } from './sign-in-gate';

/**
 * Signing in and out, and the sessions that follow: the password's hash in the settings, sessions
 * and known browsers in the admin store, the sign-in limiter (five failures a minute per client or
 * per known browser, counted in the database) and the password checks (auth.ts createChecks).
 */

/** What the sign-in flow answers; the routes turn it into a page. */
export type SignIn =
  | { ok: true; cookies: string[] }
  | { ok: false; status: 401 | 403 | 429; notice: 'wrong' | 'origin' | 'limited'; retryAfter?: number };

/** The sign-in flow and session checks on the admin and settings stores. */
export function createLogin(
  admin: AdminStore,
  settings: SettingsStore,
  trustProxy: boolean,
  processGate?: { burst: number; perSecond: number },
) {
  const checks = createChecks();
  const gate = createSignInGate(processGate);

  const check = async (password: string): Promise<boolean> => {
    const stored = await settings.get('password_hash');
    return stored !== null && (await verifyPassword(password, stored));
  };

  return {
    /**
     * Set the password up: from the environment (replaced when it changed, which ends every
     * session), or the stored one, or a new random one (returned, to print once). Throws for a
     * password shorter than MIN_PASSWORD_CHARS.
     */
    async init(fromEnv: string | null): Promise<{ generated: string | null }> {
      const stored = await settings.get('password_hash');
      if (fromEnv !== null) {
        const weak = weakPassword(fromEnv);
        if (weak) throw new Error(`PAGEPULSE_ADMIN_PASSWORD ${weak}`);
        // re-hashed only when it changed, so a restart keeps the sessions of an unchanged password
        if (!stored || !(await verifyPassword(fromEnv, stored))) {
          await settings.set('password_hash', await hashPassword(fromEnv));
          await admin.closeAllSessions();
        }
        return { generated: null };
      }
      if (stored) return { generated: null };
      const generated = generatedPassword();
      await settings.set('password_hash', await hashPassword(generated));
      return { generated };
    },
    /**
     * A sign-in: another Origin is refused first (no guess, nothing to count); then a slot of the
     * gate in memory (sign-in-gate.ts) and of the database's limiter is taken before the password
     * is read (so parallel guesses count), for the browser's device token when it signed in before,
     * else for the client's address prefix; the password is checked in the lane of either; a right
     * password (or a request that was no guess) gives its slots back.
     */
    async signIn(req: IncomingMessage, password: () => Promise<string>, now: () => number): Promise<SignIn> {
      if (!sameOrigin(req, trustProxy)) return { ok: false, status: 403, notice: 'origin' };
      // the gate runs on real time, not the injectable clock: a rate is requests per real second
      const at = Date.now();
      const device = readCookie(req, DEVICE_COOKIE);
      const deviceHash = device === null ? null : tokenHash(device);
      let known = deviceHash !== null && gate.knownDevice(deviceHash, at);
      if (!known && deviceHash !== null && gate.mayLookUp(at)) {
        known = await admin.knownDevice(deviceHash, now());
        if (known) gate.rememberDevice(deviceHash, at);
      }
      const key = tokenHash(known ? `device ${device}` : `address ${limitKey(clientAddress(req, trustProxy))}`);
      const limited = (ms: number): SignIn => ({ ok: false, status: 429, notice: 'limited', retryAfter: Math.ceil(ms / 1000) });
      const gateWait = gate.take(key, known, at);
      if (gateWait > 0) return limited(gateWait);
      const wait = await admin.takeAttempt(key, MAX_FAILURES, now());
      if (wait > 0) return limited(wait);
      const giveBack = async () => {
        gate.giveBack(key);
        await admin.giveBack(key, now());
      };
      // the body is read before a check is taken: a slow body holds no check
      const text = await password();
      const right = await checks(known, () => check(text));
      if (right === null) {
        await giveBack(); // not checked: every check of its lane was taken
        return limited(1000);
      }
      if (!right) return { ok: false, status: 401, notice: 'wrong' };
      await giveBack();
      const secure = isHttps(req, trustProxy);
      const session = newToken();
      await admin.openSession(tokenHash(session), now());
      const cookies = [sessionCookie(session, secure)];
      if (!known) {
        const token = newToken();
        await admin.addDevice(tokenHash(token), now());
        gate.rememberDevice(tokenHash(token), at);
        cookies.push(deviceCookie(token, secure));
      }
      return { ok: true, cookies };
    },
    /**
     * Whether the request carries a live session; `active`: the admin's own request, which keeps it
     * from its idle end (a background poll does not: a forgotten open tab signs itself out).
     */
    signedIn: async (req: IncomingMessage, now: number, active = true) => {
      const token = readCookie(req, ADMIN_COOKIE);
      return token !== null && (await admin.touchSession(tokenHash(token), now, active));
    },
    /** End the request's session; answers the Set-Cookie that removes it. */
    async signOut(req: IncomingMessage): Promise<string> {
      const token = readCookie(req, ADMIN_COOKIE);
      if (token) await admin.closeSession(tokenHash(token));
      return sessionCookie(null, isHttps(req, trustProxy));
    },
  };
}

export type Login = ReturnType<typeof createLogin>;
