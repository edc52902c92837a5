import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { Migration } from './migrate';
import { UTM_FIELDS, type LegacyParsers } from './types';

/**
 * What older collectors left behind, brought up to date once: stored data of before migration 3
 * (user agents not yet described, page addresses with QA switches and campaigns), and SQLite files
 * from before the schema was versioned (raw session values).
 */

/**
 * Migration 3's work on stored data, after its columns: sessions get their device class and browser
 * from their stored user agent, page addresses (page views and clicks) lose the QA switches and
 * `utm_*`, the campaign values moving to their columns on page views; so `/?pagepulse-debug=1`
 * joins `/` in the past too. Only addresses with a query are looked at.
 */
export function legacyMigration3(parsers: LegacyParsers): Migration {
  return {
    version: 3,
    name: 'stored agents described, stored pages normalised',
    sql: () => '',
    then: async (tx) => {
      const sessions = await tx.all<{ id: string; user_agent: string }>('SELECT id, user_agent FROM sessions');
      for (const row of sessions) {
        const agent = parsers.agent(row.user_agent);
        await tx.run('UPDATE sessions SET device = ?, browser = ? WHERE id = ?', [agent.device, agent.browser, row.id]);
      }
      for (const table of ['heartbeats', 'clicks']) {
        // the pattern as a parameter: a `?` in the SQL text would be a placeholder (sql.ts)
        const pages = await tx.all<{ page: string }>(`SELECT DISTINCT page FROM ${table} WHERE page LIKE ?`, ['%?%']);
        for (const { page: stored } of pages) {
          const { page, utm } = parsers.page(stored);
          if (page === stored) continue;
          if (table === 'clicks') {
            await tx.run('UPDATE clicks SET page = ? WHERE page = ?', [page, stored]);
            continue;
          }
          await tx.run(
            `UPDATE heartbeats SET page = ?, ${UTM_FIELDS.map((f) => `${f} = CASE WHEN initialize = 1 THEN ? ELSE NULL END`).join(', ')}
             WHERE page = ?`,
            [page, ...UTM_FIELDS.map((f) => utm[f]), stored],
          );
        }
      }
    },
  };
}

/**
 * Sessions are stored as the SHA-256 of the visitor's cookie, so a copy of the database cannot be
 * replayed as a visitor. A SQLite file written before that (and before `schema_migrations`) held
 * the raw values (26 to 128 characters, never 64 hex): they are hashed in place, once, in one
 * transaction, before the migrations run. (PostgreSQL support came later: its databases never held
 * raw values.)
 */
export function hashStoredSessions(db: Database.Database): void {
  const has = (table: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  if (!has('sessions') || has('schema_migrations')) return;
  const raw = db.prepare("SELECT 1 FROM sessions WHERE length(id) <> 64 OR id GLOB '*[^0-9a-f]*' LIMIT 1").get();
  if (!raw) return;
  db.function('pp_sha256', { deterministic: true }, (value: unknown) => createHash('sha256').update(String(value)).digest('hex'));
  const old = "length(session_id) <> 64 OR session_id GLOB '*[^0-9a-f]*'";
  db.transaction(() => {
    // heartbeats point at sessions: checked at COMMIT, when both sides carry the hash (`foreign_keys
    // = OFF` would be a no-op inside a transaction, and the first UPDATE failed)
    db.pragma('defer_foreign_keys = ON');
    for (const table of ['heartbeats', 'clicks', 'cookie_consents', 'form_consents'])
      if (has(table)) db.exec(`UPDATE ${table} SET session_id = pp_sha256(session_id) WHERE ${old}`);
    db.exec("UPDATE sessions SET id = pp_sha256(id) WHERE length(id) <> 64 OR id GLOB '*[^0-9a-f]*'");
  })();
}
