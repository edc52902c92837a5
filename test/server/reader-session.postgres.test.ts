import { describe, expect, it } from 'vitest';
import { postgresEngine } from '../../collector/server/store/postgres';
import { newPostgresDatabase } from '../support/collector';

// The readers' connection on PostgreSQL is one, so that the readers take one of the database
// server's cores at most; a parallel plan's workers took three (PostgreSQL pass only).

describe("the readers' connection", () => {
  it('plans without parallel workers and without JIT; the writers keep the server defaults', async () => {
    const engine = postgresEngine(await newPostgresDatabase());
    try {
      const setting = async (side: 'reads' | 'sql', name: string) =>
        Object.values((await engine[side].get<Record<string, string>>(`SHOW ${name}`)) ?? {})[0];
      expect(await setting('reads', 'max_parallel_workers_per_gather')).toBe('0');
      expect(await setting('reads', 'jit')).toBe('off');
      expect(await setting('sql', 'jit')).toBe('off');
      expect(await setting('sql', 'max_parallel_workers_per_gather')).not.toBe('0');
    } finally {
      await engine.close();
    }
  });
});
