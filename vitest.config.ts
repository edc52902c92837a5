import { defineConfig } from 'vitest/config';
import { LongFilesFirst } from './test/support/sequencer.ts';

/**
 * Files run at once per project, on the 2-core machine CI has (docs/testing.md, "Round 6"): the
 * unit and collector files are CPU work (two), the browser files wait on real timers and the
 * network for about half their time (three Chromiums), the engine scenarios two browsers at a
 * time. `PAGEPULSE_WORKERS_<PROJECT>` (UNIT, SERVER, BROWSER, ENGINES) overrides one for a measurement.
 */
const workers = (project: string, count: number) => Number(process.env[`PAGEPULSE_WORKERS_${project}`] ?? count);

/** Unit suites run twice (jsdom and happy-dom); server, browser and engine suites run in node. */
const unit = (environment: 'jsdom' | 'happy-dom') => ({
  test: {
    name: `unit-${environment}`,
    environment,
    include: ['test/unit/**/*.test.{ts,tsx}'],
    setupFiles: ['test/unit/setup-dom.ts'],
    maxWorkers: workers('UNIT', 2),
  },
});

const postgres = process.env.PAGEPULSE_TEST_ENGINE === 'postgres';

/**
 * Browser files whose subject is not the bundle: the admin area and the collector's figures (the
 * bundle only makes their data) and the tests' own vendor proxy. They run in the default bundle's
 * pass only; the lite pass runs every other file (docs/testing.md). What the lite bundle does in
 * them (consent, heartbeats, clicks on the demo) is proven by the files it runs and by the engine
 * scenarios.
 */
const BUNDLE_INDEPENDENT = [
  'test/browser/admin.test.ts',
  'test/browser/admin-dashboard.test.ts',
  'test/browser/admin-downloads.test.ts',
  'test/browser/admin-field-errors.test.ts',
  'test/browser/vendor-proxy.test.ts',
];
/**
 * Browser files the lite pass leaves out: what only the default (React) build does (React evaluated
 * only when a surface is needed; the lite build evaluates preact and its two views with the bundle:
 * build/lite-views.ts), and the markup hold, the same module in both builds
 * (src/platform/markup.ts, set up by main.ts with no build condition): its lite wiring is proven by
 * the engine scenario's lite page in three engines (test/engines/consent.test.ts) and by
 * consent.test.ts's lite injections; its 54 s a pass kept the whole run over 15 minutes.
 */
const DEFAULT_BUILD_ONLY = ['test/browser/consent-markup.test.ts', 'test/browser/deferred.test.ts'];
const litePass = process.env.PAGEPULSE_BUNDLE === 'pagepulse.lite.iife.js';

/**
 * Server files that open no database (the site's calendar, page addresses, the supervisor's
 * backoff) or always SQLite (read-rows and read-parts in memory, the SQLite reader threads, the day
 * totals' writes on the collector's thread): the same test in both collector passes. They run in the SQLite pass only; the calendar's comparisons with Intl took 11 s
 * of the PostgreSQL pass.
 */
const ENGINE_INDEPENDENT = [
  'test/server/calendar.test.ts',
  'test/server/page.test.ts',
  'test/server/read-parts.test.ts',
  'test/server/read-rows.test.ts',
  'test/server/reader-thread.test.ts',
  'test/server/supervisor.test.ts',
  'test/server/totals-stall.test.ts',
];

export default defineConfig({
  test: {
    // the browser and engine files that wait longest start first, on a fresh clone too
    sequence: { sequencer: LongFilesFirst },
    projects: [
      unit('jsdom'),
      unit('happy-dom'),
      // the build's dependency edits (build/): small entries built in memory with them, then run
      {
        test: {
          name: 'build',
          environment: 'node',
          include: ['test/build/**/*.test.ts'],
          testTimeout: 30_000,
          maxWorkers: workers('UNIT', 2),
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts'],
          testTimeout: 20_000,
          maxWorkers: workers('SERVER', 2),
          // PAGEPULSE_TEST_ENGINE=postgres: the same suite on a throwaway PostgreSQL (test/support/postgres.ts),
          // plus the tests that need several collector processes on one database (`*.postgres.test.ts`)
          ...(postgres
            ? { globalSetup: ['test/support/postgres-setup.ts'], hookTimeout: 30_000, exclude: ENGINE_INDEPENDENT }
            : { exclude: ['test/server/multiprocess.test.ts', 'test/server/**/*.postgres.test.ts'] }),
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['test/browser/**/*.test.ts'],
          exclude: litePass ? [...BUNDLE_INDEPENDENT, ...DEFAULT_BUILD_ONLY] : [],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // a page's answer to an action, polled for up to 5 s (vitest's 1 s default was missed beside two
          // CPU hogs: a reset's reload of the consent log); a poll that holds returns at once, as before
          expect: { poll: { timeout: 5_000 } },
          // one Chromium per worker; a fourth was no quicker than three (the cores are the limit then)
          maxWorkers: workers('BROWSER', 3),
          // a worker's files share its loaded modules (playwright-core, the support files): each file
          // launches its own Chromium and server, and none changes a module's state (no mocks, no
          // stubbed globals); importing them anew per file took 34 to 47 s of the files' time a pass
          isolate: false,
        },
      },
      {
        test: {
          // the shared scenarios, in the engine PAGEPULSE_ENGINE names (test/support/engines)
          name: 'engines',
          environment: 'node',
          include: ['test/engines/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 5_000 } },
          // two browsers at a time (one engine per step): the scenarios wait on their intervals most
          // of the time; each bound they measure holds with two CPU hogs beside the run
          maxWorkers: workers('ENGINES', 2),
        },
      },
    ],
  },
});
