import { afterEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { SESSION_COOKIE } from '../../collector/server/visitor/session';
import { FORM_TYPE, STREAM, rawRequest, removeDir, signIn, startCollector, type Harness } from '../support/collector';

const PAGE = 'http://lichtwerk.test/';
const KEEPALIVE = '/index.php?option=com_ajax&format=json';

let h: Harness;
afterEach(async () => {
  await h.close();
  removeDir(h.dbPath);
});

const stillAnswers = async (): Promise<void> => {
  const res = await fetch(h.url + KEEPALIVE);
  expect(res.status).toBe(200);
  expect((await res.json()).success).toBe(true);
};

describe('bodies', () => {
  it('answers 413 to a 70 KiB body and keeps serving', async () => {
    h = await startCollector();
    const body = `task=stream.display&nowpage=${'a'.repeat(70 * 1024)}`;
    const res = await fetch(h.url + STREAM, { method: 'POST', headers: { 'content-type': FORM_TYPE }, body });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'body too large', code: 'body_too_large' });
    await stillAnswers();
  });

  it('stops reading a chunked body (no length announced) once it passes 64 KiB', async () => {
    h = await startCollector();
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const res = await rawRequest(h.url, {
      method: 'POST',
      path: STREAM,
      headers: { 'content-type': FORM_TYPE, 'transfer-encoding': 'chunked' },
      chunks: [Buffer.from('task=stream.display&nowpage='), chunk, chunk, chunk, chunk, chunk],
    });
    expect(res.status).toBe(413);
    await stillAnswers();
  });

  it('answers 400 with a JSON error to malformed bodies', async () => {
    h = await startCollector();
    const post = (body: string | Blob, type = FORM_TYPE) =>
      fetch(h.url + STREAM, { method: 'POST', headers: { 'content-type': type }, body });
    for (const body of [
      'task=stream.display&nowpage=%E0%A4%A',
      'task=stream.display&nowpage=%zz',
      new Blob([new Uint8Array([0x74, 0x3d, 0xff, 0xfe])]),
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).error).toMatch(/malformed|UTF-8/);
    }
    const json = await post('{"task":"stream.display"}', 'application/json');
    expect(json.status).toBe(415);
    await stillAnswers();
  });

  it('reads task and fields from the query as well, the body winning', async () => {
    h = await startCollector();
    const res = await fetch(`${h.url}${STREAM}&task=stream.saveEntity&nowpage=ignored`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE },
      body: `task=stream.display&nowpage=${encodeURIComponent(PAGE)}&module_available=1`,
    });
    expect(res.status).toBe(200);
    // the heartbeat's answer (the badges' counts), not the click's (`[]`)
    expect((await res.json())['data-bind']).toBeDefined();
  });
});

describe('failures inside a handler', () => {
  it('answers 500, reports the error, and keeps serving', async () => {
    let fail = false;
    const now = (): number => {
      if (fail) {
        fail = false;
        throw new Error('clock broke');
      }
      return Date.now();
    };
    h = await startCollector({ now });
    fail = true; // the next request's handler meets a broken clock
    const res = await fetch(h.url + KEEPALIVE);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'internal error', code: 'internal' });
    expect(h.errors).toHaveLength(1);
    await stillAnswers();
  });
});

describe('session cookie', () => {
  it('is issued once, HttpOnly and SameSite=Lax, on any first request', async () => {
    h = await startCollector();
    const page = await fetch(`${h.url}/`);
    const set = page.headers.get('set-cookie')!;
    expect(set).toMatch(new RegExp(`^${SESSION_COOKIE}=[a-z0-9]{26,}; `));
    expect(SESSION_COOKIE).toMatch(/^[0-9a-f]{32}$/);
    const attributes = set.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');

    const cookie = set.split(';')[0]!;
    const again = await fetch(h.url + KEEPALIVE, { headers: { cookie } });
    expect(again.headers.get('set-cookie')).toBeNull();
    // two requests without the cookie are two different visitors
    const other = await fetch(h.url + KEEPALIVE);
    expect(other.headers.get('set-cookie')!.split(';')[0]).not.toBe(cookie);
  });

  it('replaces a forged value instead of storing it', async () => {
    h = await startCollector();
    const res = await fetch(h.url + KEEPALIVE, { headers: { cookie: `${SESSION_COOKIE}=x'; DROP TABLE` } });
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=[a-z0-9]{26,};`));
  });
});

describe('persistence', () => {
  it('keeps visitors, clicks and consents across a restart on the same file', async () => {
    h = await startCollector();
    const anna = h.visitor();
    await anna.beat(PAGE, true);
    await anna.post(STREAM, [
      ['task', 'stream.saveEntity'],
      ['resource', 'heatmap'],
      ['clicked_element', 'html > body:nth-child(2)'],
      ['nowpage', PAGE],
    ]);
    await anna.post('/index.php?option=com_gdpr&task=user.processGenericCookieCategories', [['gdpr_generic_cookie_consent', 1]]);

    h = await h.reopen();
    const ben = h.visitor();
    expect((await ben.beat(PAGE, true))['data-bind']).toMatchObject({ users_onpage: '2', users_total: '2' });
    expect((await (await ben.get(`/api/clicks?page=${encodeURIComponent(PAGE)}`)).json()).clicks).toHaveLength(1);
    expect((await (await (await signIn(h.url)).get('/admin/api/consents')).json()).consents).toHaveLength(1);
    // the same session cookie still counts as the same visitor after the restart
    const fresh = h.visitor();
    fresh.cookie = anna.cookie;
    expect((await fresh.beat(PAGE))['data-bind']).toMatchObject({ users_total: '2' });
  });
});

describe('an aborted upload', () => {
  it('is not reported as a failure of the collector (no stack trace), and the next request is answered', async () => {
    h = await startCollector();
    const { hostname, port } = new URL(h.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST ${STREAM} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: 5000\r\n\r\ntask=stream.display&nowpage=`,
        );
        setTimeout(() => socket.destroy(), 50); // gone mid-body
      });
      socket.on('close', () => resolve());
    });
    await stillAnswers();
    expect(h.errors).toEqual([]);
  });
});

describe('slow requests', () => {
  /** Open a connection, send `start`, then nothing: answers what the collector sends and when it closes. */
  const stall = (url: string, start: string) =>
    new Promise<{ answer: string; ms: number }>((resolve) => {
      const { hostname, port } = new URL(url);
      const started = performance.now();
      let answer = '';
      const socket = connect(Number(port), hostname, () => socket.write(start));
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', () => {});
      socket.on('close', () => resolve({ answer, ms: performance.now() - started }));
      setTimeout(() => socket.destroy(), 5000).unref();
    });

  it('a body that never ends is cut after the request timeout with 408, not held for minutes', async () => {
    h = await startCollector({ requestTimeoutMs: 500 });
    const { hostname } = new URL(h.url);
    const { answer, ms } = await stall(
      h.url,
      `POST ${STREAM} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: 100\r\n\r\ntask=strea`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3000);
    await stillAnswers();
  });

  it('headers that never end are cut after the request timeout too', async () => {
    h = await startCollector({ requestTimeoutMs: 500 });
    const { ms } = await stall(h.url, `GET / HTTP/1.1\r\nHost: x\r\nX-Slow: `);
    expect(ms).toBeLessThan(3000);
    await stillAnswers();
  });
});
