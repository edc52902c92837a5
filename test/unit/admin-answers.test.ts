import { describe, expect, it } from 'vitest';
import { accepted, ApiError } from '../../collector/admin/api';
import { fileNameOf } from '../../collector/admin/download';

/** An answer of the collector as fetch gives it. */
const answer = (status: number, body: string, headers: Record<string, string> = {}) => new Response(body, { status, headers });

describe("the admin app's reading of the collector's answers", () => {
  it("an error answer's field, code and Retry-After; none where the answer names none", async () => {
    const refused = await accepted(
      answer(
        400,
        JSON.stringify({
          error: 'consentRetentionDays must be 1 to 3650',
          code: 'retention_range',
          field: 'consentRetentionDays',
        }),
      ),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'retention_range', field: 'consentRetentionDays', retryAfter: null });
    // a proxy's page: no JSON, no code, no field; the status and Retry-After say what happened
    const proxy = await accepted(answer(503, '<h1>Service Unavailable</h1>', { 'retry-after': '5' })).catch((e: unknown) => e);
    expect(proxy).toMatchObject({ status: 503, code: null, field: null, retryAfter: 5, message: 'HTTP 503' });
    const odd = await accepted(answer(400, JSON.stringify({ error: 'x', code: 'no_such_code', field: 7 }))).catch(
      (e: unknown) => e,
    );
    expect(odd).toMatchObject({ code: null, field: null });
  });

  it('a 2xx answer is passed on unread (a file keeps its bytes)', async () => {
    const res = answer(200, '\ufefffigure,current,previous\r\n', { 'content-type': 'text/csv; charset=utf-8' });
    expect(await accepted(res)).toBe(res);
    expect(res.bodyUsed).toBe(false);
  });

  it("a download's name is the one the collector's Content-Disposition gives", () => {
    expect(fileNameOf('attachment; filename="pagepulse-browsers-2025-05-14_2025-05-20-filtered.csv"')).toBe(
      'pagepulse-browsers-2025-05-14_2025-05-20-filtered.csv',
    );
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
