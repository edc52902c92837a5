import { createServer, connect, type Server, type Socket } from 'node:net';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STREAM, newPostgresDatabase, removeDir, startCollector, type Harness } from '../support/collector';

// PostgreSQL going away under a running collector (PostgreSQL pass only): each failed request is
// one line in the log, not a stack trace per error, and the answer says to come back (503).

/** A TCP proxy in front of the database that the test can cut, as a stopped server would. */
async function proxyTo(target: URL): Promise<{ url: string; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

let h: Harness | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close().catch(() => {});
  if (h) removeDir(h.dbPath);
  h = null;
});

describe('PostgreSQL stops under a running collector', () => {
  it('one failed heartbeat: one line in the log, answered 503', async () => {
    const proxy = await proxyTo(new URL(await newPostgresDatabase()));
    h = await startCollector({ databaseUrl: proxy.url, onError: undefined });
    const visitor = h.visitor();
    await visitor.beat('http://lichtwerk.test/', true);
    // the start's background runs (retention, day totals) are done: only the request meets the cut
    await h.buildTotals();
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(...format(...args).split('\n')));
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void lines.push(...format(...args).split('\n')));
    await proxy.cut();
    const res = await visitor.post(STREAM, [
      ['task', 'stream.display'],
      ['nowpage', 'http://lichtwerk.test/'],
      ['module_available', 1],
    ]);
    expect(lines, lines.join('\n')).toHaveLength(1);
    expect(res.status).toBe(503);
    expect(lines[0]).toMatch(/database/i);
  });
});
