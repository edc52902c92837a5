import { defineConfig } from 'vitest/config';

/** Unit suites run twice (jsdom and happy-dom); server, browser and engine suites run in node. */
const unit = (environment: 'jsdom' | 'happy-dom') => ({
  test: {
    name: `unit-${environment}`,
    environment,
    include: ['test/unit/**/*.test.{ts,tsx}'],
    setupFiles: ['test/unit/setup-dom.ts'],
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
  'test/browser/vendor-proxy.test.ts',
];
const litePass = process.env.PAGEPULSE_BUNDLE === 'pagepulse.lite.iife.js';

export default defineConfig({
  test: {
    projects: [
      unit('jsdom'),
      unit('happy-dom'),
      // the build's dependency edits (build/): small entries built in memory with them, then run
      { test: { name: 'build', environment: 'node', include: ['test/build/**/*.test.ts'], testTimeout: 30_000 } },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts'],
          testTimeout: 20_000,
          // PAGEPULSE_TEST_ENGINE=postgres: the same suite on a throwaway PostgreSQL (test/support/postgres.ts),
          // plus the tests that need several collector processes on one database (`*.postgres.test.ts`)
          ...(postgres
            ? { globalSetup: ['test/support/postgres-setup.ts'], hookTimeout: 30_000 }
            : { exclude: ['test/server/multiprocess.test.ts', 'test/server/**/*.postgres.test.ts'] }),
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['test/browser/**/*.test.ts'],
          exclude: litePass ? BUNDLE_INDEPENDENT : [],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // two cores: one Chromium per worker, two workers at most
          maxWorkers: 2,
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
          // one browser at a time: MiniBrowser, its web and network processes and Xvfb already
          // fill two cores, and the scenarios measure intervals
          maxWorkers: 1,
        },
      },
    ],
  },
});
