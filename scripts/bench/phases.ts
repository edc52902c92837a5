// Where a visit's start-up time goes, phase by phase, with and without a DevTools client attached.
// `npx tsx scripts/bench/phases.ts [lite|react] [first|return]` builds the bundle once more into
// .bench/phases/ with `performance.mark('pp:…')` calls at the phase boundaries of src/main.ts (a
// build-time edit of this bench only; the shipped builds carry none) and loads the demo page N times
// (PHASES_RUNS, default 11) in three ways: Playwright with 4x CPU throttling (what the other benches
// do), Playwright at 1x, and a plain headless Chromium with NO DevTools client, whose page posts its
// marks back (what a visitor's browser does). Medians per phase, ms.
//
// Why the third column: with DevTools attached (Lighthouse, Playwright) Chromium records a stack
// trace for each `document.cookie` access and each request a script starts; the first such capture
// inside our bundle makes V8 collect source positions for the frames on the stack, which for the
// IIFE's top-level function means re-parsing the whole bundle. A visitor's browser does none of it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build, type Plugin } from 'vite';
import { MARKS, markPhases } from './phase-marks';
import { BENCH_OUT, median } from './util';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.PHASES_RUNS ?? 11);
const build_ = process.argv[2] === 'react' ? 'react' : 'lite';
const visit = process.argv[3] === 'first' ? 'first' : 'return';
const OUT = resolve(BENCH_OUT, 'phases');
const FILE = build_ === 'lite' ? 'pagepulse.lite.iife.js' : 'pagepulse.iife.js';
const TAG =
  '<script src="/dist/pagepulse.iife.js" data-privacy-url="/kontakt/datenschutz.html" data-state-input="#pp-state"></script>';

/** Insert the phase marks into src/main.ts as it is compiled for this bench. */
function phaseMarks(): Plugin {
  return {
    name: 'bench-phase-marks',
    enforce: 'pre',
    transform: (code, id) => (id.endsWith('/src/main.ts') ? markPhases(code) : null),
  };
}

/** Phase durations of one load from its marks (`pp:0` is the tag's inline mark before our script). */
function phasesOf(marks: Array<[string, number]>): Map<number, number> {
  const at = new Map(marks.map(([name, t]) => [Number(name.slice(3)), t]));
  const out = new Map<number, number>();
  for (let i = 0; i <= MARKS.length; i++) {
    const from = at.get(i);
    const to = at.get(i + 1);
    if (from !== undefined && to !== undefined) out.set(i, to - from);
  }
  return out;
}

await build({
  mode: build_ === 'lite' ? 'lite' : 'production',
  logLevel: 'warn',
  plugins: [phaseMarks()],
  // PHASES_NO_HINT=1: without the V8 compile hint (vite.config.ts's postBanner), to see what it changes
  build: {
    outDir: OUT,
    emptyOutDir: false,
    sourcemap: false,
    ...(process.env.PHASES_NO_HINT ? { rolldownOptions: { output: { postBanner: '' } } } : {}),
  },
});

const report = `<script>addEventListener('load', () => setTimeout(() => fetch('/report', { method: 'POST', body: JSON.stringify(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('pp:')).map((m) => [m.name, m.startTime])) }), 1500));</script>`;
const html = readFileSync('demo/index.html', 'utf8');
if (!html.includes(TAG)) throw new Error('demo/index.html no longer carries the bundle tag this bench replaces');
const page = html.replace(
  TAG,
  `<script>performance.mark('pp:0')</script>${TAG.replace('/dist/pagepulse.iife.js', `/x/${FILE}`)}${report}`,
);
const consent = ['cookieconsent_status=allow; Path=/', 'cookieconsent_categories=1.2.3.4; Path=/'];
let reported: ((marks: Array<[string, number]>) => void) | null = null;
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/report') {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.end('ok');
      reported?.(JSON.parse(body) as Array<[string, number]>);
    });
    return;
  }
  if (path === '/p/') {
    // the return visit's cookies come with the page, so every kind of run has them before our script
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(visit === 'return' ? { 'set-cookie': consent } : {}) });
    res.end(page);
    return;
  }
  if (path === '/index.php') {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    return;
  }
  const file = path.startsWith('/x/') ? join(OUT, path.slice(3)) : path.includes('..') ? '' : `demo${path}`;
  try {
    const body = readFileSync(file);
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const nextReport = (): Promise<Array<[string, number]>> =>
  new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error('no marks reported within 30 s')), 30_000);
    reported = (marks) => {
      clearTimeout(timer);
      done(marks);
    };
  });

const columns: Record<string, Array<Map<number, number>>> = { 'DevTools 4x': [], 'DevTools 1x': [], 'no DevTools 1x': [] };
try {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox'] });
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const rate of [4, 1]) {
        const context = await browser.newContext();
        const tab = await context.newPage();
        const cdp = await context.newCDPSession(tab);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate });
        const marks = nextReport();
        await tab.goto(`${origin}/p/`, { waitUntil: 'load' });
        columns[`DevTools ${rate}x`]!.push(phasesOf(await marks));
        await context.close();
      }
      // no DevTools client at all: a fresh profile, the page reports its own marks
      const profile = mkdtempSync(join(tmpdir(), 'pagepulse-phases-'));
      // its own process group, so the browser's helper processes go with it
      const chrome = spawn(
        CHROME,
        ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`, `${origin}/p/`],
        {
          stdio: 'ignore',
          detached: true,
        },
      );
      try {
        columns['no DevTools 1x']!.push(phasesOf(await nextReport()));
      } finally {
        const exited = new Promise((done) => chrome.once('exit', done));
        process.kill(-chrome.pid!, 'SIGKILL');
        await exited;
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      }
    }
  } finally {
    await browser.close();
  }
} finally {
  server.close();
}

const names = ['script tag to start of boot (download, compile, top-level run)', ...MARKS.map(([, name]) => name)];
console.log(`${build_} build, ${visit} visit, demo page, median of ${RUNS} loads per column, ms`);
console.log(`| phase | ${Object.keys(columns).join(' | ')} |`);
console.log(
  `|---|${Object.keys(columns)
    .map(() => '---')
    .join('|')}|`,
);
names.forEach((name, i) => {
  const cells = Object.values(columns).map((runs) => {
    const values = runs.map((r) => r.get(i)).filter((v): v is number => v !== undefined);
    return values.length ? median(values).toFixed(1) : 'n/a';
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
});
