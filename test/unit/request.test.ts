import { describe, expect, it } from 'vitest';
import { de } from '../../src/i18n/de';
import { describeError } from '../../src/joomla/alerts';
import { encodeForm } from '../../src/platform/encode';
import { createRequester, type RequesterDeps } from '../../src/platform/request';
import { isSessionToken } from '../../src/platform/validate';

const TOKEN = '0123456789abcdef0123456789ABCDEF';
type Call = { url: string; init: RequestInit };

/** A fake transport: records calls and answers with `respond` (or throws what it returns). */
function setup(respond: (call: Call) => Response | Error | 'hang', overrides: Partial<RequesterDeps> = {}) {
  const calls: Call[] = [];
  const request = createRequester({
    fetch: ((url: string, init: RequestInit) => {
      const call = { url, init };
      calls.push(call);
      const answer = respond(call);
      if (answer === 'hang')
        return new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    }) as typeof fetch,
    pageUrl: () => 'https://site.example/seite',
    csrfToken: () => TOKEN,
    setTimeout: ((fn: () => void, ms: number) => setTimeout(fn, ms)) as typeof setTimeout,
    clearTimeout: ((id: ReturnType<typeof setTimeout>) => clearTimeout(id)) as typeof clearTimeout,
    ...overrides,
  });
  return { request, calls };
}
const json = (body: unknown, status = 200, statusText = 'OK') =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });

describe('request helper: Joomla.request semantics', () => {
  it('GETs by default and POSTs form-encoded when data is given', async () => {
    const { request, calls } = setup(() => json({ ok: 1 }));
    const got = await request({ url: '/index.php?option=com_ajax&format=json' });
    expect(got).toEqual({ ok: true, status: 200, data: { ok: 1 } });
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.url).toBe('https://site.example/index.php?option=com_ajax&format=json');
    expect((calls[0]!.init.headers as Record<string, string>)['X-Requested-With']).toBe('XMLHttpRequest');
    await request({
      url: '/x',
      data: [
        ['a b', "(x)!*'~ ü"],
        ['n', null],
      ],
    });
    expect(calls[1]!.init.method).toBe('POST');
    expect(calls[1]!.init.body).toBe("a+b=(x)!*'~+%C3%BC&n=");
    expect((calls[1]!.init.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded; charset=UTF-8',
    );
  });

  it('adds X-CSRF-Token only to same-origin POSTs with a 32-hex token', async () => {
    const header = (call: Call) => (call.init.headers as Record<string, string>)['X-CSRF-Token'];
    const ok = setup(() => json({}));
    await ok.request({ url: '/same', data: [] });
    await ok.request({ url: 'https://other.example/x', data: [] });
    await ok.request({ url: '/same' });
    expect(ok.calls.map(header)).toEqual([TOKEN, undefined, undefined]);
    const bad = setup(() => json({}), { csrfToken: () => 'not-a-token' });
    await bad.request({ url: '/same', data: [] });
    expect(header(bad.calls[0]!)).toBeUndefined();
  });

  it('classifies a parse error', async () => {
    const { request } = setup(() => new Response('<html>Fehler</html>', { status: 200 }));
    const got = await request({ url: '/x' });
    expect(got).toEqual({ ok: false, error: { kind: 'parse', status: 200, detail: '<html>Fehler</html>' } });
  });

  it('classifies no content', async () => {
    const { request } = setup(() => new Response(null, { status: 204 }));
    expect(await request({ url: '/x' })).toEqual({ ok: false, error: { kind: 'nocontent', status: 204, detail: '' } });
  });

  it('classifies a timeout', async () => {
    const { request } = setup(() => 'hang');
    expect(await request({ url: '/x', timeout: 30 })).toEqual({ ok: false, error: { kind: 'timeout', status: 0, detail: '' } });
  });

  it('classifies an aborted connection', async () => {
    const { request } = setup(() => new TypeError('Failed to fetch'));
    expect(await request({ url: '/x' })).toEqual({ ok: false, error: { kind: 'abort', status: 0, detail: 'Failed to fetch' } });
  });

  it('keeps the status when the connection is lost after the headers: an answer came', async () => {
    const body = new ReadableStream({ start: (controller) => controller.error(new TypeError('network error')) });
    const { request } = setup(() => new Response(body, { status: 200 }));
    const got = await request({ url: '/x' });
    expect(got).toMatchObject({ ok: false, error: { kind: 'abort', status: 200 } });
  });

  it('classifies other failures with the status and the server message or the status text', async () => {
    const withMessage = setup(() => json({ message: 'Datenbank weg' }, 500, 'Internal Server Error'));
    expect(await withMessage.request({ url: '/x' })).toEqual({
      ok: false,
      error: { kind: 'http', status: 500, detail: 'Datenbank weg' },
    });
    const withText = setup(() => new Response('nope', { status: 403, statusText: 'Forbidden' }));
    expect(await withText.request({ url: '/x' })).toEqual({
      ok: false,
      error: { kind: 'http', status: 403, detail: 'Forbidden' },
    });
  });

  it('refuses an oversized answer unparsed and never rejects on a bad address', async () => {
    const { request } = setup(() => new Response(`{"a":"${'x'.repeat(300 * 1024)}"}`));
    const got = await request({ url: '/x' });
    expect(got.ok === false && got.error.kind).toBe('parse');
    const broken = setup(() => json({}), { pageUrl: () => 'not a url' });
    expect((await broken.request({ url: 'also not' })).ok).toBe(false);
  });

  it('words every class as Joomla does', () => {
    expect(describeError({ kind: 'parse', status: 200, detail: 'x' }, de)).toBe(
      'Bei der Verarbeitung der folgenden JSON-Daten ist ein Parser-Fehler aufgetreten: x',
    );
    expect(describeError({ kind: 'nocontent', status: 204, detail: '' }, de)).toBe('Es wurde kein Inhalt zurückgegeben.');
    expect(describeError({ kind: 'timeout', status: 0, detail: '' }, de)).toBe(
      'Die Zeit für die Verarbeitung der Anfrage beim Server ist abgelaufen.',
    );
    expect(describeError({ kind: 'abort', status: 0, detail: '' }, de)).toBe('Die Verbindung wurde abgebrochen.');
    expect(describeError({ kind: 'http', status: 500, detail: 'Weg' }, de)).toBe(
      'Beim Abrufen der JSON-Daten ist ein Fehler aufgetreten: HTTP-Statuscode 500. Weg',
    );
    expect(describeError({ kind: 'http', status: 502, detail: '' }, de)).toBe(
      'Beim Abrufen der JSON-Daten ist ein Fehler aufgetreten: HTTP-Statuscode 502.',
    );
  });
});

describe('encoding and validators', () => {
  it("encodes like jQuery 1.12's $.param", () => {
    expect(
      encodeForm([
        ['task', 'stream.display'],
        ['nowpage', 'https://x.de/a b?c=d&e=ö#f'],
        ['initialize', ''],
        ['module_available', 0],
      ]),
    ).toBe('task=stream.display&nowpage=https%3A%2F%2Fx.de%2Fa+b%3Fc%3Dd%26e%3D%C3%B6%23f&initialize=&module_available=0');
    expect(
      encodeForm([
        ['formfields[Ihre E-Mail]', 'a+b@x.de'],
        ['u', undefined],
        ['t', true],
      ]),
    ).toBe('formfields%5BIhre+E-Mail%5D=a%2Bb%40x.de&u=&t=true');
  });
  it('checks session tokens', () => {
    expect(isSessionToken(TOKEN)).toBe(true);
    expect(isSessionToken(TOKEN.slice(1))).toBe(false);
    expect(isSessionToken(`${TOKEN.slice(1)}g`)).toBe(false);
    expect(isSessionToken(undefined)).toBe(false);
  });
});
