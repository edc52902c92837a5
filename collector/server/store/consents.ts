import { DEFAULT_STATE } from './consents-schema';
import { consentTotals } from './consents-totals';
import type { RetentionStep } from './retention';
import { sessionLock, type Reads, type Sql } from './sql';
import type { FormRef, Visitor } from './types';

/**
 * The consents area: the cookie-consent log (com_gdpr's generic choice and category changes, with
 * the visitor's consent ID where the bundle sends one), form consents (a form's privacy tick, with
 * the form's fields), and the day totals of the consent statistics.
 *
 * Each cookie-consent record also keeps the visitor's whole state after it (`s1`..`s4`: the
 * opt-out default, Notwendig and Präferenzen on, Statistiken and Marketing off, overlaid with the
 * session's records so far), so a day's statistics read one record per visitor instead of replaying
 * every record before it.
 */

/** A consent record as the admin area shows and exports it: the session only as its pseudonym. */
export interface ConsentEntry {
  kind: 'generic' | 'category' | 'form';
  id: number;
  at: number;
  /** The stored session (the SHA-256 of the cookie); the features show its pseudonym only. */
  session: string;
  consentId: string | null;
  category: number | null;
  granted: boolean | null;
  userAgent: string;
  url: string | null;
  formId: string | null;
  formName: string | null;
  fields: Record<string, string> | null;
  deletedAt: number | null;
}

/** The log's filter: a half-open time range, and a pseudonym or a consent ID. */
export interface ConsentFilter {
  from: number;
  to: number;
  /** A pseudonym: the first 12 hex characters of the session. */
  visitor: string | null;
  consentId: string | null;
}

/** Where a page of the log continues: after this record (newest first). */
type Cursor = { at: number; id: number; kind: string };

const COOKIE_COLUMNS = `id, session_id, consent_id, category, granted, user_agent, at,
  CASE WHEN category IS NULL THEN 'generic' ELSE 'category' END AS kind`;
const FORM_COLUMNS = "id, session_id, url, form_id, form_name, fields, user_agent, at, deleted_at, 'form' AS kind";

/** The consents area on an open database. */
export function consentsStore(sql: Sql, reads: Reads) {
  /** The condition of the log's filter on one table, and its parameters. */
  const where = (filter: ConsentFilter, cookies: boolean): { sql: string; params: unknown[] } => {
    const parts = ['at >= ? AND at < ?'];
    const params: unknown[] = [filter.from, filter.to];
    if (filter.visitor !== null) {
      // a pseudonym is a prefix of the hex session: a range of the session index
      parts.push('session_id >= ? AND session_id < ?');
      params.push(filter.visitor, `${filter.visitor}g`);
    }
    if (filter.consentId !== null) {
      if (!cookies) return { sql: '1 = 0', params: [] };
      parts.push('consent_id = ?');
      params.push(filter.consentId);
    }
    return { sql: parts.join(' AND '), params };
  };
  /** One page of one table after the cursor, newest first. */
  const pageOf = async (table: 'cookie' | 'form', filter: ConsentFilter, after: Cursor | null, size: number) => {
    const w = where(filter, table === 'cookie');
    const from =
      table === 'cookie' ? `SELECT ${COOKIE_COLUMNS} FROM cookie_consents` : `SELECT ${FORM_COLUMNS} FROM form_consents`;
    // a row value: both engines walk the (at, id) index backwards from the cursor (an OR of the two
    // conditions made PostgreSQL start at the newest record on every page)
    const cursor = after ? ' AND (at, id) < (?, ?)' : '';
    return reads.all<Record<string, unknown>>(`${from} WHERE ${w.sql}${cursor} ORDER BY at DESC, id DESC LIMIT ?`, [
      ...w.params,
      ...(after ? [after.at, after.id] : []),
      size,
    ]);
  };
  const entryOf = (row: Record<string, unknown>): ConsentEntry => ({
    kind: row.kind as ConsentEntry['kind'],
    id: Number(row.id),
    at: Number(row.at),
    session: row.session_id as string,
    consentId: (row.consent_id as string | null | undefined) ?? null,
    category: row.category === undefined || row.category === null ? null : Number(row.category),
    granted: row.granted === undefined || row.granted === null ? null : Number(row.granted) === 1,
    userAgent: row.user_agent as string,
    url: (row.url as string | undefined) ?? null,
    formId: (row.form_id as string | undefined) ?? null,
    formName: (row.form_name as string | undefined) ?? null,
    fields: row.fields ? (JSON.parse(row.fields as string) as Record<string, string>) : null,
    deletedAt: row.deleted_at === undefined || row.deleted_at === null ? null : Number(row.deleted_at),
  });
  /** Newest first across both tables: at, then id, then kind (`generic` > `form` > `category`), as one ORDER BY would. */
  const newer = (a: ConsentEntry, b: ConsentEntry) =>
    a.at - b.at || a.id - b.id || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

  return {
    ...consentTotals(reads),
    /**
     * A cookie-consent record (category null: the generic choice), with the session's state after it;
     * under the session's lock, since the bundle sends a choice's calls at once and each reads the state before it.
     */
    recordCookieConsent: (visitor: Visitor, category: number | null, granted: boolean, consentId: string | null, at: number) =>
      sql.transaction(async (tx) => {
        const last = await tx.get<{ s1: number | null; s2: number; s3: number; s4: number }>(
          'SELECT s1, s2, s3, s4 FROM cookie_consents WHERE session_id = ? ORDER BY at DESC, id DESC LIMIT 1',
          [visitor.session],
        );
        const state: number[] = last && last.s1 !== null ? [last.s1, last.s2, last.s3, last.s4] : [...DEFAULT_STATE];
        if (category !== null) state[category - 1] = granted ? 1 : 0;
        await tx.run(
          `INSERT INTO cookie_consents (session_id, category, granted, user_agent, ip, at, consent_id, s1, s2, s3, s4)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [visitor.session, category, granted ? 1 : 0, visitor.userAgent, visitor.ip, at, consentId, ...state],
        );
      }, sessionLock(visitor.session)),
    storeFormConsent: async (visitor: Visitor, form: FormRef, fields: Record<string, string>, at: number) =>
      void (await sql.run(
        `INSERT INTO form_consents (session_id, url, form_id, form_name, fields, user_agent, ip, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [visitor.session, form.url, form.formId, form.formName, JSON.stringify(fields), visitor.userAgent, visitor.ip, at],
      )),
    /** Mark the visitor's latest live record of that form deleted; returns how many rows changed (0 or 1). */
    deleteFormConsent: (visitor: Visitor, form: FormRef, at: number) =>
      sql.run(
        `UPDATE form_consents SET deleted_at = ? WHERE id = (
           SELECT id FROM form_consents
           WHERE session_id = ? AND url = ? AND form_id = ? AND form_name = ? AND deleted_at IS NULL
           ORDER BY at DESC, id DESC LIMIT 1)`,
        [at, visitor.session, form.url, form.formId, form.formName],
      ),

    /**
     * The log, newest first, in pages of `pageSize` records: each page is one short query per table
     * on the readers' side (a cursor, never OFFSET), so an export of a million records holds a page
     * in memory at a time, and what waits for the database between pages goes on meanwhile.
     */
    async *log(filter: ConsentFilter, limit = Number.POSITIVE_INFINITY, pageSize = 1000): AsyncGenerator<ConsentEntry[]> {
      const cursors: Record<'cookie' | 'form', Cursor | null> = { cookie: null, form: null };
      const buffers: Record<'cookie' | 'form', ConsentEntry[]> = { cookie: [], form: [] };
      const done = { cookie: false, form: false };
      let sent = 0;
      const fill = async (table: 'cookie' | 'form') => {
        if (done[table] || buffers[table].length > 0) return;
        const rows = (await pageOf(table, filter, cursors[table], pageSize)).map(entryOf);
        if (rows.length < pageSize) done[table] = true;
        if (rows.length > 0) {
          const last = rows[rows.length - 1]!;
          cursors[table] = { at: last.at, id: last.id, kind: last.kind };
        }
        buffers[table] = rows;
      };
      while (sent < limit) {
        await Promise.all([fill('cookie'), fill('form')]);
        const page: ConsentEntry[] = [];
        // merge while both sides have rows (or one side is finished)
        while (page.length < pageSize && sent + page.length < limit) {
          const a = buffers.cookie[0];
          const b = buffers.form[0];
          if (!a && !b) break;
          if ((!a && !done.cookie) || (!b && !done.form)) break;
          const take = !b || (a && newer(a, b) > 0) ? 'cookie' : 'form';
          page.push(buffers[take].shift()!);
        }
        if (page.length === 0) {
          if (buffers.cookie.length === 0 && buffers.form.length === 0 && done.cookie && done.form) return;
          continue;
        }
        sent += page.length;
        yield page;
      }
    },

    /** The sessions behind a pseudonym among the consent records. */
    sessionsOf: async (pseudonym: string) =>
      (
        await sql.all<{ id: string }>(
          `SELECT session_id AS id FROM cookie_consents WHERE session_id >= ? AND session_id < ?
           UNION SELECT session_id FROM form_consents WHERE session_id >= ? AND session_id < ?`,
          [pseudonym, `${pseudonym}g`, pseudonym, `${pseudonym}g`],
        )
      ).map((r) => r.id),
    /** The sessions that logged a choice with this consent ID. */
    sessionsOfConsent: async (consentId: string) =>
      (
        await sql.all<{ id: string }>('SELECT DISTINCT session_id AS id FROM cookie_consents WHERE consent_id = ?', [consentId])
      ).map((r) => r.id),
    async erase(tx: Sql, sessions: readonly string[], consentId: string | null = null): Promise<number> {
      let records = 0;
      for (const session of sessions)
        for (const table of ['cookie_consents', 'form_consents'])
          records += await tx.run(`DELETE FROM ${table} WHERE session_id = ?`, [session]);
      if (consentId !== null) records += await tx.run('DELETE FROM cookie_consents WHERE consent_id = ?', [consentId]);
      return records;
    },
    retention: (cookieBefore: number, formBefore: number): RetentionStep[] => [
      { name: 'cookieConsents', table: 'cookie_consents', where: 'at < ?', params: [cookieBefore] },
      { name: 'formConsents', table: 'form_consents', where: 'at < ?', params: [formBefore] },
    ],
  };
}

export type ConsentsStore = ReturnType<typeof consentsStore>;
