import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_GATE, PROCESS_GATE, createSignInGate } from '../../collector/server/admin/sign-in-gate';
import { closeHarness, FORM_TYPE, type Harness, startCollector } from '../support/collector';

// Sign-ins meet a gate in memory before any database work (collector/server/admin/sign-in-gate.ts):
// the database's limiter is a write transaction on the heartbeats' side, and a flood of sign-ins
// paid one per request. The database still counts what passes (admin.test.ts: five a minute).
let h: Harness | null = null;
afterEach(async () => {
  await closeHarness(h);
  h = null;
});

describe('the gate of one process', () => {
  it("per client, per known browser, and for every client together; a known browser never waits for the others'", () => {
    const gate = createSignInGate();
    const t = 1_700_000_000_000;
    for (let i = 0; i < CLIENT_GATE.burst; i++) expect(gate.take('a', false, t)).toBe(0);
    expect(gate.take('a', false, t)).toBeGreaterThan(0);
    // a slot given back (a right password) is there again
    gate.giveBack('a');
    expect(gate.take('a', false, t)).toBe(0);
    // every other client together: the process's burst, some of it taken by `a`
    let through = CLIENT_GATE.burst + 1;
    for (let n = 0; n < 2 * PROCESS_GATE.burst; n++) if (gate.take(`client ${n}`, false, t) === 0) through++;
    expect(through).toBe(PROCESS_GATE.burst);
    expect(gate.take('device d', true, t)).toBe(0);
    expect(gate.knownDevice('d', t)).toBe(false);
    gate.rememberDevice('d', t);
    expect(gate.knownDevice('d', t + 1000)).toBe(true);
  });
});

describe('a flood of sign-ins', () => {
  /** Count what the database's limiter writes: a trigger on admin_attempts, in the collector's database. */
  const countAttemptWrites = async () => {
    await h!.execute('CREATE TABLE test_attempt_writes (at BIGINT)', [[]]);
    if (h!.engine === 'postgres') {
      await h!.execute(
        `CREATE FUNCTION test_attempt_write() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN INSERT INTO test_attempt_writes (at) SELECT NEW.at; RETURN NEW; END $$`,
        [[]],
      );
      await h!.execute(
        'CREATE TRIGGER test_attempt_write AFTER INSERT ON admin_attempts FOR EACH ROW EXECUTE FUNCTION test_attempt_write()',
        [[]],
      );
    } else {
      await h!.execute(
        'CREATE TRIGGER test_attempt_write AFTER INSERT ON admin_attempts BEGIN INSERT INTO test_attempt_writes (at) SELECT NEW.at; END',
        [[]],
      );
    }
    return async () => (await h!.query('SELECT COUNT(*) AS n FROM test_attempt_writes'))[0]!.n as number;
  };
  const login = (address: string, origin: string) =>
    fetch(`${h!.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin, 'content-type': FORM_TYPE, 'x-forwarded-for': address },
      body: new URLSearchParams({ password: 'geraten-und-falsch' }).toString(),
    });

  it('from 300 addresses: past the gate only a bounded number reach the database; another Origin never does', async () => {
    // a slow gate: the bound stays far below 300 when a busy machine takes seconds to answer the flood
    const gate = { burst: 20, perSecond: 2 };
    h = await startCollector({ trustProxy: true, signInGate: gate });
    const writes = await countAttemptWrites();
    const started = Date.now();
    // 300 addresses in 300 different /24s, all at once
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => login(`10.${i >> 8}.${i & 255}.7`, h!.url).then((r) => r.status)),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(await writes()).toBeLessThanOrEqual(gate.burst + Math.ceil(seconds * gate.perSecond));
    expect(await writes()).toBeLessThan(300);
    // a foreign Origin is no guess: refused before anything is counted
    const before = await writes();
    const foreign = await Promise.all(Array.from({ length: 50 }, (_, i) => login(`10.1.${i}.7`, 'https://evil.example')));
    expect(foreign.map((r) => r.status)).toEqual(Array(50).fill(403));
    expect(await writes()).toBe(before);
  }, 60_000);
});
