import { describe, expect, it } from 'vitest';
import { restartDelayMs } from '../../collector/server/supervisor';

// PAGEPULSE_WORKERS: how long the primary waits before it replaces a worker that died
// (kill -9 of a worker on PostgreSQL: workers.postgres.test.ts).
describe('replacing a dead worker', () => {
  it('at once the first time in a minute, then after 1, 2, 4... s, never more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([0, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
