import { defineConfig } from 'vitest/config';

/** Unit suites run twice (jsdom and happy-dom); server and browser suites run in node. */
const unit = (environment: 'jsdom' | 'happy-dom') => ({
  test: { name: `unit-${environment}`, environment, include: ['test/unit/**/*.test.{ts,tsx}'] },
});

export default defineConfig({
  test: {
    projects: [
      unit('jsdom'),
      unit('happy-dom'),
      { test: { name: 'server', environment: 'node', include: ['test/server/**/*.test.ts'], testTimeout: 20_000 } },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // two cores: one Chromium per worker, two workers at most
          maxWorkers: 2,
        },
      },
    ],
  },
});
