import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, signIn, startCollector, type Harness } from '../support/collector';

/**
 * The settings', a token's name's, an erasure's and the consent log search's error answers name the
 * form field at fault (`field`, beside `error` and `code`), so the admin app can mark that input and
 * move focus to it (test/browser/admin-field-errors.test.ts).
 */

let h: Harness;
beforeEach(async () => {
  h = await startCollector();
});
afterEach(async () => {
  await h.close();
  removeDir(h.dbPath);
});

describe('POST /admin/api/settings: a wrong value names its field', () => {
  it('a retention out of range: 400 with the field; nothing of the form is saved', async () => {
    const admin = await signIn(h.url);
    const before = await (await admin.get('/admin/api/settings')).json();
    const res = await admin.post('/admin/api/settings', {
      visitRetentionDays: '30',
      clickRetentionDays: '30',
      formRetentionDays: '30',
      consentRetentionDays: '4000',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // the admin area's headers as with every other answer of /admin
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.json()).toEqual({
      error: 'consentRetentionDays must be 1 to 3650',
      code: 'retention_range',
      field: 'consentRetentionDays',
    });
    expect(await (await admin.get('/admin/api/settings')).json()).toEqual(before);
  });

  it('several wrong values: the first in the form\'s order (what the app focuses); "1e3" and "" are wrong too', async () => {
    const admin = await signIn(h.url);
    const field = async (fields: Record<string, string>) =>
      ((await (await admin.post('/admin/api/settings', fields)).json()) as { field?: string }).field;
    expect(await field({ visitRetentionDays: '400', clickRetentionDays: '0', formRetentionDays: '-5' })).toBe(
      'clickRetentionDays',
    );
    expect(await field({ formRetentionDays: '1e3' })).toBe('formRetentionDays');
    expect(await field({ visitRetentionDays: '' })).toBe('visitRetentionDays');
  });

  it('an unknown time zone names timeZone; errors of no field name none', async () => {
    const admin = await signIn(h.url);
    const zone = await admin.post('/admin/api/settings', { timeZone: 'Mars/Olympus' });
    expect(zone.status).toBe(400);
    expect(await zone.json()).toEqual({
      error: 'timeZone must be an IANA time zone such as Europe/Berlin',
      code: 'time_zone',
      field: 'timeZone',
    });
    const missing = await admin.post('/admin/api/settings', {});
    expect(await missing.json()).toEqual({ error: expect.stringMatching(/^name a setting/), code: 'setting_missing' });
    // a token's id is no field the admin types (the list's revoke button sends it)
    const revoke = await admin.post('/admin/api/tokens/revoke', { id: 'x' });
    expect(await revoke.json()).toEqual({ error: 'id must be a token id', code: 'token_id' });
  });
});

describe('POST /admin/api/tokens and /admin/api/erase: a refused value names its form field', () => {
  it("a token's name empty, blank, too long or with a control character: 400 naming `name`; no token made", async () => {
    const admin = await signIn(h.url);
    for (const name of ['', '   ', 'x'.repeat(101), 'a\u0007b']) {
      const res = await admin.post('/admin/api/tokens', { name });
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ error: 'name must be 1 to 100 characters', code: 'token_name', field: 'name' });
    }
    expect(await (await admin.get('/admin/api/tokens')).json()).toEqual({ tokens: [] });
    // a right one still goes through, with no field in its answer
    expect(await (await admin.post('/admin/api/tokens', { name: 'Grafana' })).json()).toMatchObject({ name: 'Grafana' });
  });

  it('an erasure by a wrong pseudonym names `visitor`, by a wrong consent ID `consent` (the field sent)', async () => {
    const admin = await signIn(h.url);
    const visitor = await admin.post('/admin/api/erase', { visitor: 'not-a-pseudonym' });
    expect(visitor.status).toBe(400);
    expect(visitor.headers.get('x-frame-options')).toBe('DENY');
    expect(await visitor.json()).toEqual({
      error: 'visitor must be a 12-character pseudonym',
      code: 'visitor_pseudonym',
      field: 'visitor',
    });
    // nothing sent at all: the visitor field is the one missing
    expect(((await (await admin.post('/admin/api/erase', {})).json()) as { field?: string }).field).toBe('visitor');
    const consent = await admin.post('/admin/api/erase', { consent: 'short' });
    expect(consent.status).toBe(400);
    expect(await consent.json()).toEqual({ error: 'consent must be a consent ID', code: 'consent_id', field: 'consent' });
    // right ones of nobody: erased nothing, no error
    expect(await (await admin.post('/admin/api/erase', { visitor: '0123456789ab' })).json()).toEqual({
      sessions: 0,
      records: 0,
    });
  });
});

describe('GET /admin/api/consents and /admin/consents.csv: a wrong search names its query parameter', () => {
  it('a wrong pseudonym names `visitor`, a wrong consent ID `consent`, in the log and its CSV export', async () => {
    const admin = await signIn(h.url);
    const visitor = { error: 'visitor must be a 12-character pseudonym', code: 'visitor_pseudonym', field: 'visitor' };
    const consent = { error: 'consent must be a consent ID', code: 'consent_id', field: 'consent' };
    for (const [path, answer] of [
      ['/admin/api/consents?visitor=anna', visitor],
      ['/admin/consents.csv?visitor=anna', visitor],
      ['/admin/api/consents?consent=short', consent],
      ['/admin/consents.csv?consent=short', consent],
      // both wrong: the first the collector checks, the pseudonym
      ['/admin/api/consents?visitor=anna&consent=short', visitor],
      // a right pseudonym beside a wrong ID: the ID
      ['/admin/api/consents?visitor=0123456789ab&consent=short', consent],
    ] as const) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(await res.json(), path).toEqual(answer);
    }
    // right ones of nobody: an empty log, no error
    const found = await admin.get(`/admin/api/consents?visitor=0123456789ab&consent=${'A'.repeat(16)}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ consents: [] });
  });
});
