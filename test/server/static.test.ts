import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../collector/server/app';
import { bookmarklet } from '../../collector/server/visitor/bookmarklet';
import { rawRequest, removeDir, startCollector, type Harness } from '../support/collector';

/** Marks the file that must never be served, so a leak is visible in any answer. */
const SECRET = 'SECRET-PACKAGE-JSON';

describe('static files from a fixture root', () => {
  let root: string;
  let h: Harness;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pagepulse-root-'));
    const files: Record<string, string> = {
      'package.json': `{"name":"${SECRET}"}`,
      // a type the server does serve, so only the path checks stand between it and the wire
      'outside.html': SECRET,
      'demo/index.html': '<!doctype html><title>Start</title>',
      'demo/assets/site.css': 'body{}',
      'demo/assets/img/x.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'demo/kontakt/index.html': '<!doctype html><title>Kontakt</title>',
      'demo/server/app.ts': `export const secret = '${SECRET}';`,
      'demo/.env': SECRET,
      'demo/notes.ts': SECRET,
      'dist/pagepulse.iife.js': '(()=>{})();',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    h = await startCollector({ root });
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dbPath);
    rmSync(root, { recursive: true, force: true });
  });

  it('serves demo/ at / and dist/ at /dist/ with their content types and nosniff', async () => {
    const cases: Array<[string, string, string]> = [
      ['/', 'text/html; charset=utf-8', '<title>Start</title>'],
      ['/index.html', 'text/html; charset=utf-8', '<title>Start</title>'],
      ['/kontakt/', 'text/html; charset=utf-8', '<title>Kontakt</title>'],
      ['/assets/site.css', 'text/css; charset=utf-8', 'body{}'],
      ['/assets/img/x.svg', 'image/svg+xml', '<svg'],
      ['/dist/pagepulse.iife.js', 'text/javascript; charset=utf-8', '(()=>{})();'],
    ];
    for (const [path, type, text] of cases) {
      const res = await fetch(h.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain(text);
    }
  });

  it('redirects a folder to its slash, answers HEAD, refuses other methods', async () => {
    const folder = await rawRequest(h.url, { path: '/kontakt?x=1' });
    expect(folder.status).toBe(301);
    expect(folder.headers.location).toBe('/kontakt/?x=1');
    const head = await rawRequest(h.url, { method: 'HEAD', path: '/assets/site.css' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect((await fetch(`${h.url}/assets/site.css`, { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('never serves a file outside the mounts, the server source, dotfiles or unlisted types', async () => {
    const traversals = [
      '/../FILE',
      '/../../FILE',
      '/%2e%2e/FILE',
      '/..%2fFILE',
      '/%2e%2e%2fFILE',
      '/dist/../FILE',
      '/dist/..%2f..%2fFILE',
      '/dist/%2e%2e%2f%2e%2e%2fFILE',
      '/assets/..%5c..%5cFILE',
      '/%252e%252e/FILE',
      '//FILE',
    ];
    const paths = [
      ...traversals.flatMap((path) => [path.replace('FILE', 'package.json'), path.replace('FILE', 'outside.html')]),
      '/outside.html%00.html',
      '/server/app.ts',
      '/.env',
      '/notes.ts',
      '/missing.html',
    ];
    for (const path of paths) {
      const res = await rawRequest(h.url, { path });
      expect([400, 403, 404], path).toContain(res.status);
      expect(res.body, path).not.toContain(SECRET);
    }
  });
});

describe('the demo site as shipped', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startCollector();
  });
  afterAll(async () => {
    await h.close();
    removeDir(h.dbPath);
  });

  it('serves the studio page with the statistics module, the blocked content and one bundle tag', async () => {
    const res = await fetch(`${h.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<div id="jes_mod"');
    for (const key of ['users_onpage', 'visitors', 'users_logged', 'users_total']) expect(html).toContain(`data-bind="${key}"`);
    expect(html).toContain('<iframe data-category="4" data-src="/assets/embed/video.html"');
    expect(html).toContain('<script type="text/plain" data-category="3" data-src="/assets/vendor/analytics-tag.js">');
    expect(html.match(/<script src="\/dist\/pagepulse\.iife\.js"/g)).toHaveLength(1);
    // works under `default-src 'self'`: no inline code or styles
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) expect(body).toBe('');
  });

  it('links every local asset the pages name', async () => {
    for (const page of ['/', '/gdpr.html', '/kontakt/datenschutz.html', '/assets/embed/video.html']) {
      const html = await (await fetch(h.url + page)).text();
      const refs = [...html.matchAll(/(?:src|href|data-src)="(\/(?!dist\/|api\/|index\.php)[^"#?]*)/g)].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of new Set(refs)) expect((await fetch(h.url + ref)).status, `${page} -> ${ref}`).toBe(200);
    }
  });

  it('carries the same bookmarklet the server prints, with a relative origin', () => {
    const html = readFileSync(join(REPO_ROOT, 'demo/index.html'), 'utf8');
    const href = /id="pp-bookmarklet" href="([^"]+)"/.exec(html)![1]!;
    expect(href).toBe(bookmarklet(''));
    expect(bookmarklet('http://127.0.0.1:5199')).toContain("s.src=o+'/dist/pagepulse.iife.js'");
    expect(bookmarklet('http://127.0.0.1:5199').endsWith("('http://127.0.0.1:5199')")).toBe(true);
  });
});
