import Database from 'better-sqlite3';
import { chmodSync, closeSync, openSync } from 'node:fs';
import { ADMIN_MIGRATIONS, adminStore, type AdminLifetimes } from './admin';
import { CLICKS_MIGRATIONS, clicksStore } from './clicks';
import { consentsStore } from './consents';
import { CONSENTS_MIGRATIONS } from './consents-schema';
import { hashStoredSessions, legacyMigration3 } from './legacy';
import { migrate, type Migration } from './migrate';
import { runRetention } from './retention';
import { ROLLUP_MIGRATIONS } from './rollups';
import { SETTINGS_MIGRATIONS, settingsStore } from './settings';
import { postgresEngine } from './postgres';
import type { Engine } from './sql';
import { sqliteEngine } from './sqlite';
import { totalsBuilder } from './totals-builder';
import type { LegacyParsers } from './types';
import { visitsStore } from './visits';
import { referrerMigration5 } from './visits-data-migrations';
import { VISITS_MIGRATIONS } from './visits-schema';

/**
 * The collector's storage, by data area: visits (sessions, visits, page views, presence), clicks,
 * consents (the cookie-consent log, form consents), admin (sessions, devices, sign-in attempts) and
 * settings. Each area owns its tables, queries and migrations (`*_MIGRATIONS`) and the day totals of
 * its figures (rollups.ts); SQL stays inside this folder. Erasure, retention and the day totals
 * span the areas and are composed here (the day totals' builder in totals-builder.ts).
 */

export type { AdminStore, AdminLifetimes } from './admin';
export type { ClickCount, ClicksStore } from './clicks';
export type { ConsentEntry, ConsentFilter, ConsentsStore } from './consents';
export type { Decisions } from './consents-totals';
export type { Day, Range } from './rollups';
export type { SettingsStore } from './settings';
export type { AgentInfo, DeviceClass, FormRef, Heartbeat, LegacyParsers, Presence, UtmField, Visitor } from './types';
export { UTM_FIELDS } from './types';
export { MAX_CLICKS_PER_SESSION, MAX_SELECTORS_PER_SESSION } from './clicks';
export { VISIT_GAP_MS } from './visits-beat';
export { presenceKeptMs, type VisitsStore } from './visits';
export { SCREEN_CLASSES, type FilterDimension, type VisitDimension, type VisitFilter } from './visits-totals';

/** Where the collector keeps its data: a SQLite file (or `:memory:`), or a PostgreSQL database. */
export type StoreTarget = { sqlite: string } | { postgres: string };

/** What opening a store needs besides its target. */
export interface StoreOptions {
  /** What migrations 3 and 5 need for data stored before them (the visitor feature's parsers). */
  parsers: LegacyParsers;
  lifetimes: AdminLifetimes;
  /** PostgreSQL: how long each statement of a day-totals build may run (totals-timeout.ts; default TOTALS_TIMEOUT_MS). */
  totalsTimeoutMs?: number;
}

/** How long each kind of data is kept: rows older than each time go (null: that kind is left alone). */
export interface RetentionPlan {
  /** Page views, visits, sessions not seen since. */
  visits: number;
  /** Presence rows from before this (an hour or the presence window: presenceKeptMs). */
  presence: number;
  clicks: number;
  cookieConsents: number;
  formConsents: number;
  /** The admin rows' own clock (sessions, devices, attempts end by their lifetimes). */
  now: number;
}

/** Every version of the schema, by area (a version's parts run in this order). */
export function migrations(parsers: LegacyParsers): Migration[] {
  return [
    ...VISITS_MIGRATIONS,
    ...CLICKS_MIGRATIONS,
    ...CONSENTS_MIGRATIONS,
    ...ADMIN_MIGRATIONS,
    ...SETTINGS_MIGRATIONS,
    ...ROLLUP_MIGRATIONS,
    // after the version-3 columns of visits and clicks
    legacyMigration3(parsers),
    referrerMigration5(parsers),
  ].sort((a, b) => a.version - b.version);
}

/** The store on an open engine. */
function storeOn(engine: Engine, options: StoreOptions, beforeMigrations: () => void) {
  const { sql, reads } = engine;
  const visits = visitsStore(sql, reads);
  const clicks = clicksStore(sql, reads);
  const consents = consentsStore(sql, reads);
  const admin = adminStore(sql, options.lifetimes);
  const settings = settingsStore(sql);
  const stats = totalsBuilder(sql, reads, visits, clicks, consents, options.totalsTimeoutMs);
  return {
    engine: sql.engine,
    visits,
    clicks,
    consents,
    admin,
    settings,
    /** Bring the schema up to date; the first thing to call. */
    async migrate(now: number): Promise<void> {
      beforeMigrations();
      await migrate(sql, migrations(options.parsers), now);
    },
    /**
     * Erase everything of a visitor (GDPR Art. 17): every session whose pseudonym is `pseudonym`, or
     * that sent `consentId`, with their page views, visits, presence, clicks and consent records.
     * Day totals stay: they count no one; the labels the visitor's addresses gave (pages with a
     * query, referring paths) leave them here (visits.erase, clicks.erase), the rest with the retention.
     */
    async erase(by: { pseudonym: string } | { consentId: string }): Promise<{ sessions: number; records: number }> {
      const sessions =
        'pseudonym' in by
          ? [
              ...new Set([
                ...(await visits.sessionsOf(by.pseudonym)),
                ...(await clicks.sessionsOf(by.pseudonym)),
                ...(await consents.sessionsOf(by.pseudonym)),
              ]),
            ]
          : await consents.sessionsOfConsent(by.consentId);
      // not between two slices of a day's or month's totals (totals-builder.ts)
      return stats.exclusive(() =>
        sql.transaction(async (tx) => {
          let records = await clicks.erase(tx, sessions);
          records += await consents.erase(tx, sessions, 'consentId' in by ? by.consentId : null);
          records += await visits.erase(tx, sessions);
          return { sessions: sessions.length, records };
        }),
      );
    },
    /** Delete what is older than the plan says, every area; null when another process runs it now (PostgreSQL). */
    retain: (plan: RetentionPlan, wait: boolean) =>
      stats.exclusive(() =>
        runRetention(
          sql,
          [
            ...consents.retention(plan.cookieConsents, plan.formConsents),
            ...clicks.retention(plan.clicks),
            ...visits.retention(plan.visits, plan.presence),
            ...admin.retention(plan.now),
          ],
          wait,
        ),
      ),
    /** The day totals' builder's side (jobs.ts; totals-builder.ts). */
    stats,
    close: () => engine.close(),
  };
}

/** The collector's storage. */
export type Store = ReturnType<typeof storeOn>;

/**
 * Open (or create) the collector's database; `migrate` then brings its schema up to date. A SQLite
 * file gets WAL (readers on their own thread while the collector writes); it holds the consent log,
 * so it is created readable by the collector's user only (0600; SQLite gives its -wal and -shm files
 * the same mode), and an older file is narrowed to that. PostgreSQL (a URL) is shared by every
 * collector process that names it; its pools connect on the first statement.
 */
export function createStore(target: StoreTarget, options: StoreOptions): Store {
  if ('postgres' in target) return storeOn(postgresEngine(target.postgres), options, () => {});
  const path = target.sqlite;
  if (path !== ':memory:') {
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  }
  const db = new Database(path);
  if (path !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // WAL with NORMAL: a commit is not synced to disk (a power cut may lose the last ones; a crash of
    // the collector loses nothing); the first reader thread checkpoints every second, this connection
    // only when the WAL passes 40 MB (the reader threads are gone)
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 10000');
  }
  db.pragma('foreign_keys = ON');
  return storeOn(sqliteEngine(db, path), options, () => hashStoredSessions(db));
}

/** createStore, then migrate: a store ready to use. */
export async function openStore(target: StoreTarget, options: StoreOptions, now = Date.now()): Promise<Store> {
  const store = createStore(target, options);
  try {
    await store.migrate(now);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
