import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, signIn, startCollector, type Harness } from '../support/collector';

/**
 * The settings' error answers name the field at fault (`field`, beside `error` and `code`), so the
 * admin app can mark that input and move focus to it (test/browser/admin-field-errors.test.ts).
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
    const token = await admin.post('/admin/api/tokens', { name: '' });
    expect(await token.json()).toEqual({ error: 'name must be 1 to 100 characters', code: 'token_name' });
  });
});
