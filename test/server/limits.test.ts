import { afterEach, describe, expect, it } from 'vitest';
import { limitKey, storedAddress } from '../../collector/server/edge/address';
import { createTokenBuckets } from '../../collector/server/edge/rate-limit';
import { closeHarness, FORM_TYPE, type Harness, startCollector } from '../support/collector';

// The per-client limits (docs/collector.md "Security and privacy"): a token bucket per client, a
// client the stored prefix of its address.
let h: Harness | null = null;
afterEach(async () => {
  await closeHarness(h);
  h = null;
});

const HOUR = 60 * 60 * 1000;

describe('token buckets', () => {
  it('a backward clock step (NTP, a VM corrected) takes no tokens: the wait stays what the rate says', () => {
    const buckets = createTokenBuckets(2, 1);
    const t = 1_700_000_000_000;
    expect([buckets.take('a', t), buckets.take('a', t)]).toEqual([0, 0]);
    // an hour back: empty as before, and one token back a second later, not an hour later
    expect(buckets.take('a', t - HOUR)).toBe(1000);
    expect(buckets.take('a', t - HOUR + 1000)).toBe(0);
    expect(buckets.take('a', t - HOUR + 1000)).toBe(1000);
  });
});

describe('forwarded addresses', () => {
  it('a port the proxy appended counts for nothing; a value that is no address is one shared key', () => {
    expect(limitKey('203.0.113.7:51234')).toBe('203.0.113.0');
    expect(limitKey('203.0.113.7:51235')).toBe(limitKey('203.0.113.7'));
    expect(limitKey('[2001:db8:1234::1]:443')).toBe('2001:db8:1234::');
    expect(limitKey('[2001:db8:1234::1]')).toBe('2001:db8:1234::');
    expect(storedAddress('203.0.113.7:51234', true)).toBe('203.0.113.7');
    expect(storedAddress('[2001:db8::1]:443', true)).toBe('2001:db8::1');
    expect(limitKey('client-1')).toBe(limitKey('client-2'));
    expect(limitKey('203.0.113.7:99999:1')).toBe(limitKey('unknown'));
  });

  it('through a trusted proxy: one bucket for a client on many source ports, and for made-up values; the address is stored', async () => {
    h = await startCollector({ trustProxy: true, visitorRate: { burst: 3, perSecond: 0.001 } });
    const consent = (forwarded: string) =>
      fetch(`${h!.url}/index.php?option=com_gdpr&task=user.processGenericCookieCategories`, {
        method: 'POST',
        headers: { 'content-type': FORM_TYPE, 'x-forwarded-for': forwarded },
        body: 'gdpr_generic_cookie_consent=1',
      });
    const statuses = async (values: string[]) => {
      const answers: number[] = [];
      for (const value of values) answers.push((await consent(value)).status);
      return answers;
    };
    expect(await statuses([1, 2, 3, 4, 5].map((port) => `203.0.113.7:${50000 + port}`))).toEqual([200, 200, 200, 429, 429]);
    expect(await statuses([1, 2, 3, 4, 5].map((n) => `proxy-value-${n}`))).toEqual([200, 200, 200, 429, 429]);
    expect(await h.query("SELECT ip FROM cookie_consents WHERE ip <> '' ORDER BY id")).toEqual(
      Array.from({ length: 3 }, () => ({ ip: '203.0.113.0' })),
    );
  });
});
