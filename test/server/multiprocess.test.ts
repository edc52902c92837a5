import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, STREAM, FORM_TYPE, TEST_SITES, newPostgresDatabase, signIn } from '../support/collector';

// Two collector processes (`tsx collector/server/main.ts`, as in production but uncompiled) on one
// PostgreSQL database give the same answers as one: what a visitor sends to one is counted by the
// other, an admin session opened on one is valid on the other, and the sign-in limit counts guesses
// sent to both. Runs only in the suite's PostgreSQL pass (vitest.config.ts).

interface Child {
  url: string;
  process: ChildProcess;
  output: string;
}

function startProcess(databaseUrl: string): Promise<Child> {
  const child = spawn('node_modules/.bin/tsx', ['collector/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      PAGEPULSE_DATABASE_URL: databaseUrl,
      PAGEPULSE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PAGEPULSE_SITES: TEST_SITES.join(','),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started: Child = { url: '', process: child, output: '' };
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      started.output += chunk.toString();
      const url = /PagePulse collector and demo site: (http:\/\/[\d.:]+)\//.exec(started.output)?.[1];
      if (url && !started.url) {
        started.url = url;
        resolve(started);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`collector exited (${code}) before listening:\n${started.output}`)));
  });
}

function stopProcess(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.process.once('exit', () => resolve());
    child.process.kill('SIGTERM');
  });
}

const login = (base: string, password: string) =>
  fetch(`${base}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password }).toString(),
  });

let a: Child;
let b: Child;
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await newPostgresDatabase();
  // started together: the second waits for the first's migrations (a lock), neither fails
  [a, b] = await Promise.all([startProcess(databaseUrl), startProcess(databaseUrl)]);
  expect(a.url).not.toBe(b.url);
}, 60_000);
afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map(stopProcess));
});

describe('two collector processes on one PostgreSQL database', () => {
  it("a page view sent to one is counted in the other's admin view", async () => {
    const page = `http://lichtwerk.test/multi-${Date.now()}`;
    const beat = await fetch(a.url + STREAM, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE },
      body: new URLSearchParams({ task: 'stream.display', nowpage: page, initialize: 'true', module_available: '1' }).toString(),
    });
    expect(beat.status).toBe(200);
    const admin = await signIn(b.url);
    const traffic = (await (await admin.get('/admin/api/traffic')).json()) as {
      pages: Array<{ label: string; current: number }>;
    };
    expect(traffic.pages.find((p) => p.label === page)).toMatchObject({ label: page, current: 1 });
  });

  it('a sign-in on one is valid on the other, and a sign-out on the other ends it on both', async () => {
    const admin = await signIn(a.url);
    const onB = () => fetch(`${b.url}/admin/api/online`, { redirect: 'manual', headers: { cookie: admin.cookie } });
    expect((await onB()).status).toBe(200);
    expect((await fetch(`${b.url}/admin/api/online`)).status).toBe(401);
    const out = await fetch(`${b.url}/admin/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: admin.cookie, origin: b.url },
    });
    expect(out.status).toBe(303);
    expect((await admin.get('/admin/api/online')).status).toBe(401);
  });

  it('the retention run is one process at a time: saving the settings waits while another session holds its lock', async () => {
    const admin = await signIn(a.url);
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      // the lock's key as the collector names it (collector/server/sql.ts LOCK_KEY)
      await other.query("SELECT pg_advisory_lock(hashtextextended('pagepulse:retention', 0))");
      let answered = false;
      const saving = admin.post('/admin/api/settings', { visitRetentionDays: '30' }).then((res) => {
        answered = true;
        return res;
      });
      // the collector's transaction waits for the lock: visible in pg_locks as an advisory lock not granted
      await vi.waitFor(
        async () => {
          const waiting = await other.query(
            "SELECT COUNT(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          expect(waiting.rows[0].n).toBe(1);
        },
        { timeout: 5000 },
      );
      expect(answered).toBe(false);
      await other.query("SELECT pg_advisory_unlock(hashtextextended('pagepulse:retention', 0))");
      const res = await saving;
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ visitRetentionDays: 30, deleted: { formConsents: 0 } });
    } finally {
      await other.end();
    }
  });

  it('five failed sign-ins spread over both processes: the sixth gets 429 on either, even with the right password', async () => {
    const statuses: number[] = [];
    for (const base of [a.url, b.url, a.url, b.url, a.url]) statuses.push((await login(base, 'wrong password')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await login(b.url, 'wrong password')).status).toBe(429);
    expect((await login(a.url, ADMIN_PASSWORD)).status).toBe(429);
  });
});
