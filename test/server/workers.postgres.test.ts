import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, newPostgresDatabase } from '../support/collector';

// PAGEPULSE_WORKERS=2 (node's cluster module, PostgreSQL only): a worker that dies (kill -9) is
// replaced, the site answering meanwhile from the other; the primary stays. Runs only in the
// suite's PostgreSQL pass (vitest.config.ts: `*.postgres.test.ts`).

/** The ids of a process's node children (the workers; not the TypeScript loader's esbuild), from /proc (Linux). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...: the command may hold spaces and parentheses, so read after the last ')'
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && readlinkSync(`/proc/${entry}/exe`) === realpathSync(process.execPath)) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** GET on a new connection each time (a kept-alive one may belong to the killed worker); its status, or 0 when it failed. */
function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(url, { agent: false, timeout: 3000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

let primary: ChildProcess;
let output = '';
let url = '';

beforeAll(async () => {
  const databaseUrl = await newPostgresDatabase();
  // the primary runs the compiled collector's sources with node's loader for TypeScript (tsx), in-process:
  // its children are the workers
  primary = spawn(process.execPath, ['--import', 'tsx', 'collector/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      PAGEPULSE_WORKERS: '2',
      PAGEPULSE_DATABASE_URL: databaseUrl,
      PAGEPULSE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  primary.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  primary.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await vi.waitFor(
    () => {
      expect(primary.exitCode, output).toBeNull();
      expect(output).toContain('share the port');
    },
    { timeout: 45_000, interval: 100 },
  );
  url = /PagePulse collector and demo site: (http:\/\/[\d.:]+)\//.exec(output)![1]!;
}, 60_000);

afterAll(async () => {
  if (primary.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    primary.once('exit', () => resolve());
    primary.kill('SIGTERM');
  });
});

describe('a lost worker', () => {
  it('kill -9 of one of two workers: the site keeps answering, the primary forks a new one', async () => {
    const workers = childrenOf(primary.pid!);
    expect(workers).toHaveLength(2);
    process.kill(workers[0]!, 'SIGKILL');
    // the primary notices (a connection it handed the dead worker in that instant is lost with it,
    // as with any crash), and from then on the other worker answers while a replacement starts
    await vi.waitFor(() => expect(output).toMatch(new RegExp(`worker ${workers[0]} exited \\(signal SIGKILL\\): replacing it`)), {
      timeout: 10_000,
      interval: 50,
    });
    const statuses: number[] = [];
    await vi.waitFor(
      async () => {
        statuses.push(await status(`${url}/index.php?option=com_ajax&format=json`));
        const now = childrenOf(primary.pid!);
        expect(now).toHaveLength(2);
        expect(now).not.toContain(workers[0]);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(primary.exitCode).toBeNull();
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    await vi.waitFor(() => expect(output).toMatch(/worker \d+ took its place/), { timeout: 20_000, interval: 100 });
    // and the new worker answers too: every answer from now on is 200, whichever worker takes it
    for (let i = 0; i < 20; i++) expect(await status(`${url}/index.php?option=com_ajax&format=json`)).toBe(200);
  }, 30_000);
});
