import type { Migration } from './migrate';
import { typed } from './migrate';
import type { RetentionStep } from './retention';
import type { Sql } from './sql';

/**
 * The admin area's storage: sessions (the SHA-256 of their token), known browsers (the SHA-256 of
 * their device token), and the sign-in attempts of the last minute (keyed by a hash of the address
 * prefix or device), kept in the database so every process on one PostgreSQL counts the same
 * guesses. Tokens arrive hashed: this module never sees one.
 */

export const ADMIN_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'admin sessions and devices',
    sql: typed(`
      CREATE TABLE IF NOT EXISTS admin_devices (token_hash TEXT PRIMARY KEY, created_at \${TIME} NOT NULL);
      CREATE TABLE IF NOT EXISTS admin_sessions (
        token_hash TEXT PRIMARY KEY,
        created_at \${TIME} NOT NULL,
        last_seen \${TIME} NOT NULL
      );
    `),
  },
  {
    version: 2,
    name: 'sign-in attempts',
    sql: typed(`
      CREATE TABLE IF NOT EXISTS admin_attempts (
        id \${ID},
        key TEXT NOT NULL,
        at \${TIME} NOT NULL
      );
      CREATE INDEX IF NOT EXISTS admin_attempts_key_at ON admin_attempts (key, at);
      CREATE INDEX IF NOT EXISTS admin_attempts_at ON admin_attempts (at);
    `),
  },
  {
    version: 7,
    name: 'read-only stats API tokens',
    sql: typed(`
      CREATE TABLE api_tokens (
        id \${ID},
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        created_at \${TIME} NOT NULL,
        last_used_at \${TIME},
        revoked_at \${TIME}
      );
    `),
  },
];

/** A stats API token as the admin area lists it (never the token, nor its hash). */
export interface ApiTokenRow {
  id: number;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** How long a revoked stats API token stays in the list (then retention deletes it). */
export const REVOKED_TOKENS_MS = 30 * 24 * 60 * 60 * 1000;

/** How long sessions and devices live, and the limiter's window (admin/auth.ts decides them). */
export interface AdminLifetimes {
  sessionAbsoluteMs: number;
  sessionIdleMs: number;
  deviceMs: number;
  attemptWindowMs: number;
}

/** The admin area's storage on an open database. */
export function adminStore(sql: Sql, life: AdminLifetimes) {
  return {
    /** A new session under its token's hash (expired ones go first). */
    async openSession(hash: string, now: number): Promise<void> {
      await sql.run('DELETE FROM admin_sessions WHERE created_at < ? OR last_seen < ?', [
        now - life.sessionAbsoluteMs,
        now - life.sessionIdleMs,
      ]);
      await sql.run('INSERT INTO admin_sessions (token_hash, created_at, last_seen) VALUES (?, ?, ?)', [hash, now, now]);
    },
    /**
     * Whether the hash names a live session; touches it (with `touch`: the admin's own request, not a
     * background poll), or deletes it when it expired.
     */
    async touchSession(hash: string, now: number, touch = true): Promise<boolean> {
      const row = await sql.get<{ created_at: number; last_seen: number }>(
        'SELECT created_at, last_seen FROM admin_sessions WHERE token_hash = ?',
        [hash],
      );
      if (!row) return false;
      if (now - row.created_at > life.sessionAbsoluteMs || now - row.last_seen > life.sessionIdleMs) {
        await sql.run('DELETE FROM admin_sessions WHERE token_hash = ?', [hash]);
        return false;
      }
      if (touch) await sql.run('UPDATE admin_sessions SET last_seen = ? WHERE token_hash = ?', [now, hash]);
      return true;
    },
    closeSession: async (hash: string) => void (await sql.run('DELETE FROM admin_sessions WHERE token_hash = ?', [hash])),
    /** Every session ends (the password changed). */
    closeAllSessions: async () => void (await sql.run('DELETE FROM admin_sessions')),
    knownDevice: async (hash: string, now: number) =>
      (await sql.get('SELECT created_at FROM admin_devices WHERE token_hash = ? AND created_at >= ?', [
        hash,
        now - life.deviceMs,
      ])) !== undefined,
    async addDevice(hash: string, now: number): Promise<void> {
      await sql.run('DELETE FROM admin_devices WHERE created_at < ?', [now - life.deviceMs]);
      await sql.run('INSERT INTO admin_devices (token_hash, created_at) VALUES (?, ?)', [hash, now]);
    },
    /**
     * Take a sign-in slot for `key` (a hash): 0 when taken, else the milliseconds until one is free.
     * One transaction holding a lock on the key (PostgreSQL: parallel requests to several processes
     * count one after another); expired attempts of every key go first, so the table stays bounded.
     */
    takeAttempt: (key: string, max: number, now: number) =>
      sql.transaction(async (tx) => {
        await tx.run('DELETE FROM admin_attempts WHERE at <= ?', [now - life.attemptWindowMs]);
        const row = (await tx.get<{ n: number; oldest: number | null }>(
          'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM admin_attempts WHERE key = ?',
          [key],
        ))!;
        if (row.n >= max) return life.attemptWindowMs - (now - row.oldest!);
        await tx.run('INSERT INTO admin_attempts (key, at) VALUES (?, ?)', [key, now]);
        return 0;
      }, `sign-in ${key}`),
    /** Give back the key's latest attempt in the window (a right password, or no guess at all). */
    async giveBack(key: string, now: number): Promise<void> {
      await sql.run(
        `DELETE FROM admin_attempts WHERE id = (
           SELECT id FROM admin_attempts WHERE key = ? AND at > ? ORDER BY at DESC, id DESC LIMIT 1)`,
        [key, now - life.attemptWindowMs],
      );
    },
    /** A new stats API token under its hash, with its name and first characters (to tell tokens apart). */
    async addToken(name: string, hash: string, prefix: string, now: number): Promise<number> {
      return (await sql.get<{ id: number }>(
        'INSERT INTO api_tokens (name, token_hash, prefix, created_at) VALUES (?, ?, ?, ?) RETURNING id',
        [name, hash, prefix, now],
      ))!.id;
    },
    /** Every token, newest first, revoked ones too (the list says when). */
    async tokens(): Promise<ApiTokenRow[]> {
      const rows = await sql.all<{
        id: number;
        name: string;
        prefix: string;
        created_at: number;
        last_used_at: number | null;
        revoked_at: number | null;
      }>('SELECT id, name, prefix, created_at, last_used_at, revoked_at FROM api_tokens ORDER BY id DESC');
      return rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        prefix: r.prefix,
        createdAt: Number(r.created_at),
        lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
        revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
      }));
    },
    /** Revoke a token; false when there is none (or it was revoked before). */
    revokeToken: async (id: number, now: number) =>
      (await sql.run('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id])) > 0,
    /** The live token with this hash (and note its use), or null. */
    async useToken(hash: string, now: number): Promise<number | null> {
      const row = await sql.get<{ id: number }>('SELECT id FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL', [hash]);
      if (!row) return null;
      await sql.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', [now, row.id]);
      return Number(row.id);
    },
    /** Retention: ended sessions, devices past their 90 days, attempts past their minute, tokens revoked a month ago. */
    retention: (now: number): RetentionStep[] => [
      {
        name: 'adminSessions',
        table: 'admin_sessions',
        where: 'created_at < ? OR last_seen < ?',
        params: [now - life.sessionAbsoluteMs, now - life.sessionIdleMs],
      },
      { name: 'adminDevices', table: 'admin_devices', where: 'created_at < ?', params: [now - life.deviceMs] },
      { name: 'signInAttempts', table: 'admin_attempts', where: 'at <= ?', params: [now - life.attemptWindowMs] },
      // a live token is a credential kept until revoked; a revoked one is listed for a month, then goes
      { name: 'apiTokens', table: 'api_tokens', where: 'revoked_at < ?', params: [now - REVOKED_TOKENS_MS] },
    ],
  };
}

export type AdminStore = ReturnType<typeof adminStore>;
