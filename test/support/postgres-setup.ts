import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test cluster's maintenance database (test/support/postgres.ts), when the suite runs on PostgreSQL. */
    postgresUrl: string;
  }
}

/**
 * The collector suite's global setup when PAGEPULSE_TEST_ENGINE=postgres (vitest.config.ts): one
 * cluster for the run, each test collector in a database of its own; stopped and removed after.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgres();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
