import type { Migration } from './migrate';
import { typed } from './migrate';
import type { Sql } from './sql';

/** The consents area's tables: the cookie-consent log, form consents, the statistics' day totals. */
/** Before any record, per category: the widget's opt-out default (protocol section 5). */
export const DEFAULT_STATE = [1, 1, 0, 0] as const;

export const CONSENTS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'consent log and form consents',
    sql: typed(`
      CREATE TABLE IF NOT EXISTS cookie_consents (
        id \${ID},
        session_id TEXT NOT NULL,
        category INTEGER CHECK (category BETWEEN 1 AND 4),
        granted INTEGER NOT NULL CHECK (granted IN (0, 1)),
        user_agent TEXT NOT NULL,
        ip TEXT NOT NULL,
        at \${TIME} NOT NULL
      );
      CREATE INDEX IF NOT EXISTS cookie_consents_at ON cookie_consents (at);
      CREATE TABLE IF NOT EXISTS form_consents (
        id \${ID},
        session_id TEXT NOT NULL,
        url TEXT NOT NULL,
        form_id TEXT NOT NULL,
        form_name TEXT NOT NULL,
        fields TEXT NOT NULL,
        user_agent TEXT NOT NULL,
        ip TEXT NOT NULL,
        at \${TIME} NOT NULL,
        deleted_at \${TIME}
      );
      CREATE INDEX IF NOT EXISTS form_consents_form ON form_consents (session_id, url, form_id, form_name);
      CREATE INDEX IF NOT EXISTS form_consents_at ON form_consents (at);
    `),
  },
  {
    version: 4,
    name: 'consent IDs, the state after each record; day totals',
    sql: typed(`
      ALTER TABLE cookie_consents ADD COLUMN consent_id TEXT;
      ALTER TABLE cookie_consents ADD COLUMN s1 INTEGER;
      ALTER TABLE cookie_consents ADD COLUMN s2 INTEGER;
      ALTER TABLE cookie_consents ADD COLUMN s3 INTEGER;
      ALTER TABLE cookie_consents ADD COLUMN s4 INTEGER;
      CREATE INDEX cookie_consents_session ON cookie_consents (session_id, at, id);
      CREATE INDEX cookie_consents_consent_id ON cookie_consents (consent_id);
      CREATE INDEX cookie_consents_at_id ON cookie_consents (at, id);
      CREATE INDEX form_consents_at_id ON form_consents (at, id);
      CREATE TABLE stats_consents (
        day TEXT NOT NULL,
        hour INTEGER NOT NULL,
        deciders BIGINT NOT NULL,
        on1 BIGINT NOT NULL,
        on2 BIGINT NOT NULL,
        on3 BIGINT NOT NULL,
        on4 BIGINT NOT NULL,
        PRIMARY KEY (day, hour)
      );
    `),
    then: fillStates,
  },
];

/**
 * Migration 4: each stored cookie-consent record gets the state after it, a session at a time in
 * the order of its records, in pages of 5,000.
 */
async function fillStates(tx: Sql): Promise<void> {
  let after: [string, number, number] = ['', Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
  let session = '';
  let state: number[] = [...DEFAULT_STATE];
  for (;;) {
    const rows = await tx.all<{ id: number; session_id: string; category: number | null; granted: number; at: number }>(
      `SELECT id, session_id, category, granted, at FROM cookie_consents
       WHERE (session_id, at, id) > (?, ?, ?)
       ORDER BY session_id, at, id LIMIT 5000`,
      after,
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      if (row.session_id !== session) {
        session = row.session_id;
        state = [...DEFAULT_STATE];
      }
      if (row.category !== null) state[row.category - 1] = Number(row.granted);
      await tx.run('UPDATE cookie_consents SET s1 = ?, s2 = ?, s3 = ?, s4 = ? WHERE id = ?', [...state, row.id]);
    }
    const last = rows[rows.length - 1]!;
    after = [last.session_id, last.at, last.id];
  }
}
