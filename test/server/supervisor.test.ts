import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { restartDelayMs } from '../../collector/server/supervisor';

// PAGEPULSE_WORKERS: how long the primary waits before it replaces a worker that died
// (kill -9 of a worker on PostgreSQL: workers.postgres.test.ts).
describe('replacing a dead worker', () => {
  it('at once the first time in a minute, then after 1, 2, 4... s, never more than 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(restartDelayMs)).toEqual([0, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('workers that exit before they listen are replaced, and the start still reaches N workers', async () => {
    // the first two of three exit at start (the database not reachable yet): the second replacement waits 1 s
    const primary = spawn(process.execPath, ['--import', 'tsx', 'test/support/supervised.ts'], {
      env: { ...process.env, WORKERS: '3', FAIL_FIRST: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    primary.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    primary.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => primary.once('exit', resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (!output.includes('live workers:') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain('3 collector processes (PAGEPULSE_WORKERS) share the port');
      expect(output).toContain('live workers: 3');
      expect(output.match(/exited \(code 1\): replacing it/g)).toHaveLength(2);
      expect(output).toContain('replacing it in 1 s (2 exits in the last minute)');
    } finally {
      primary.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});
