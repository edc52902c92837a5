// `npm run bench`: sizes, start-up, selector cost, layout shift and long-session memory of both
// builds and of the peers, measured side by side in one run; writes BENCHMARKS.md.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { sizes } from './size-gate.mjs';
import { FIRST_RUNS, firstVisitRows, firstVisits } from './bench/first-visit';
import { lighthouseSection, SECTION_END, SECTION_START } from './bench/lighthouse';
import { BENCH_OUT, bundleForPage, median, ms } from './bench/util';

/** The Lighthouse section already in BENCHMARKS.md ('' when there is none). */
function keptSection(): string {
  const text = readFileSync('BENCHMARKS.md', 'utf8');
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END);
  return start >= 0 && end > start ? text.slice(start, end + SECTION_END.length) : '';
}
import { grantConsent, launch } from '../test/support/browser';
import { longSession } from '../test/support/long-session';
import { fixturePage, startServer, type TestServer } from '../test/support/server';

/** Fresh browser contexts per start-up figure (the issue asks for at least 15). */
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BEATS = 2000;

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);
const shift = (value: number | null): string => (value === null ? 'n/a' : String(Number(value.toFixed(5))));

/**
 * The React build with every UI module evaluated before the tracker starts: the "before" figure of
 * the deferred start-up. main.ts's `./ui/surfaces` is aliased to a bench file that imports the
 * views statically; the shipped builds carry no trace of it.
 */
async function eagerBuild(): Promise<string> {
  await build({
    mode: 'production',
    logLevel: 'warn',
    resolve: { alias: [{ find: /^\.\/ui\/surfaces$/, replacement: resolve('scripts/bench/eager-surfaces.ts') }] },
    build: {
      outDir: BENCH_OUT,
      sourcemap: false,
      lib: { entry: 'src/main.ts', formats: ['iife'], name: 'PagePulseBundle', fileName: () => 'pagepulse.eager.iife.js' },
    },
  });
  return resolve(BENCH_OUT, 'pagepulse.eager.iife.js');
}

/** A context whose pages accept functions compiled by tsx (esbuild's keepNames adds `__name` calls). */
async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript('window.__name = (fn) => fn;');
  // when each request is issued (resource timing skips keepalive fetches, so it cannot tell)
  await context.addInitScript(`(() => {
    const requests = (window.__requests = []);
    const note = (url) => { requests.push([String(url), performance.now()]); if (window.__onRequest) window.__onRequest(); };
    const f = window.fetch;
    window.fetch = function (input, init) { note(typeof input === 'string' ? input : input.url); return f.call(this, input, init); };
    const b = navigator.sendBeacon && navigator.sendBeacon.bind(navigator);
    if (b) navigator.sendBeacon = (url, data) => { note(url); return b(url, data); };
  })();`);
  // Plausible ignores automated browsers; every script gets the same ordinary visitor
  await context.addInitScript("Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });");
  return context;
}

/** One start-up in a fresh context: evaluate a script inline, time its evaluation and its first request. */
async function startUp(
  browser: Browser,
  server: TestServer,
  code: string,
  firstRequest: RegExp | null,
): Promise<{ evalMs: number; bootMs: number; firstMs: number | null }> {
  const context = await newContext(browser);
  await grantConsent(context, server.origin);
  const page = await context.newPage();
  await page.goto(`${server.origin}/bench.html`);
  // __t1: the script's own synchronous run; __t2: the first task after it, i.e. once every
  // microtask it queued (promise chains, inlined dynamic imports) has run as well
  await page.addScriptTag({
    content: `window.__t0 = performance.now();\n${code}\n;window.__t1 = performance.now(); { const c = new MessageChannel(); c.port1.onmessage = () => { window.__t2 = performance.now(); c.port1.close(); }; c.port2.postMessage(0); }`,
  });
  let firstMs: number | null = null;
  if (firstRequest) {
    firstMs = await page.evaluate(
      (source) =>
        new Promise<number>((done) => {
          const pattern = new RegExp(source);
          const w = window as unknown as { __t0: number; __requests: Array<[string, number]>; __onRequest?: () => void };
          const check = (): boolean => {
            const hit = w.__requests.find(([url]) => pattern.test(url));
            if (hit) done(hit[1] - w.__t0);
            return Boolean(hit);
          };
          if (!check()) w.__onRequest = () => void check();
          setTimeout(() => done(Number.NaN), 5000); // no request: reported as n/a
        }),
      firstRequest.source,
    );
  }
  await page.waitForFunction(() => (window as unknown as { __t2?: number }).__t2 !== undefined);
  const { evalMs, bootMs } = await page.evaluate(() => {
    const w = window as unknown as { __t0: number; __t1: number; __t2: number };
    return { evalMs: w.__t1 - w.__t0, bootMs: w.__t2 - w.__t0 };
  });
  await context.close();
  return { evalMs, bootMs, firstMs };
}

/** Median µs per selector on a deep, class-heavy DOM, ours and finder on the same elements. */
async function selectorCost(
  browser: Browser,
  server: TestServer,
  helpers: string,
): Promise<{ ours: number; finder: number; depth: number; unique: boolean; finderFailures: number; targets: number }> {
  const page = await (await newContext(browser)).newPage();
  await page.goto(`${server.origin}/bench.html`);
  await page.addScriptTag({ path: helpers });
  const result = await page.evaluate(() => {
    const { ours, finder } = (
      window as unknown as {
        __benchSelectors: { ours: (e: Element) => string; finder: (e: Element, options?: object) => string };
      }
    ).__benchSelectors;
    // nesting 35, three siblings a level, six classes each (two of them state classes)
    let parent: Element = document.body;
    const targets: Element[] = [];
    for (let depth = 0; depth < 35; depth++) {
      let next: Element | null = null;
      for (let sibling = 0; sibling < 3; sibling++) {
        const el = document.createElement(depth % 5 === 4 ? 'section' : 'div');
        el.className = `uk-card level-${depth} col-md-${sibling + 1} tm-box uk-active lazyloaded`;
        parent.appendChild(el);
        if (sibling === 1) next = el;
        if (depth >= 20) targets.push(el);
      }
      parent = next!;
    }
    let finderFailures = 0;
    // finder's own limits: with its defaults it overflows the stack on this DOM
    const finderLimited = (el: Element): string => {
      try {
        return finder(el, { timeoutMs: 1000, maxNumberOfPathChecks: 2000 });
      } catch {
        finderFailures++;
        return '';
      }
    };
    const time = (fn: (e: Element) => string, reps: number): number[] => {
      const perCall: number[] = [];
      for (const el of targets) {
        const t0 = performance.now();
        for (let r = 0; r < reps; r++) fn(el);
        perCall.push(((performance.now() - t0) / reps) * 1000);
      }
      return perCall;
    };
    time(ours, 5);
    time(finderLimited, 1); // warm both up
    finderFailures = 0;
    const unique = targets.every(
      (el) => document.querySelectorAll(ours(el)).length === 1 && document.querySelector(ours(el)) === el,
    );
    const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
    const oursMedian = med(time(ours, 200));
    const finderMedian = med(time(finderLimited, 5));
    return { ours: oursMedian, finder: finderMedian, unique, finderFailures: finderFailures / 5, targets: targets.length };
  });
  await page.context().close();
  return { ...result, depth: 35 };
}

/** Cumulative layout shift while the consent banner appears, and on the page after accepting. */
async function layoutShift(
  browser: Browser,
  server: TestServer,
  bundle: string,
): Promise<{ banner: number | null; accepted: number | null }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
        if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  server.page(
    '/cls.html',
    fixturePage({ bundle, body: '<header><h1>Fotostudio</h1></header><main><p>Inhalt</p><p>Noch mehr Inhalt</p></main>' }),
  );
  await page.goto(`${server.origin}/cls.html`);
  const accept = page.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren' });
  let banner: number | null = null;
  let accepted: number | null = null;
  try {
    await accept.waitFor({ timeout: 5000 });
    await page.waitForTimeout(500);
    banner = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    await Promise.all([page.waitForEvent('load'), accept.click()]);
    await page.waitForTimeout(800);
    accepted = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
  } catch (error) {
    // reported as n/a in the table; the reason goes to the console so a broken banner is not hidden
    console.warn(`layout shift (${bundle}): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  await context.close();
  return { banner, accepted };
}

async function main(): Promise<void> {
  console.log('building both bundles, the eager "before" build and the page helpers...');
  for (const mode of ['production', 'lite'])
    execFileSync('npx', ['vite', 'build', '--mode', mode, '--logLevel', 'warn'], { stdio: 'inherit' });
  const eager = await eagerBuild();
  const selectorHelpers = await bundleForPage('scripts/bench/selector-entry.ts', 'selectors');
  const plausible = await bundleForPage('scripts/bench/plausible-entry.ts', 'plausible');
  const finderOnly = await bundleForPage('node_modules/@medv/finder/finder.js', 'finder');

  const builds = [
    { name: 'PagePulse (React)', file: 'dist/pagepulse.iife.js' },
    { name: 'PagePulse lite (preact)', file: 'dist/pagepulse.lite.iife.js' },
    { name: 'PagePulse (React, UI eager: before deferral)', file: eager },
  ];
  const peers: Array<{ name: string; file: string; css?: string; first: RegExp | null }> = [
    {
      name: 'vanilla-cookieconsent 3 (JS + CSS)',
      file: 'node_modules/vanilla-cookieconsent/dist/cookieconsent.umd.js',
      css: 'node_modules/vanilla-cookieconsent/dist/cookieconsent.css',
      first: null,
    },
    { name: '@plausible-analytics/tracker', file: plausible, first: /option=plausible/ },
    { name: '@medv/finder', file: finderOnly, first: null },
  ];

  const server = await startServer();
  server.page(
    '/bench.html',
    '<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Bench</title></head><body><div id="jes_mod"><span class="badge" data-bind="visitors">0</span></div><p>Seite</p></body></html>',
  );
  const browser = await launch();
  const rows: string[] = [];
  const figures: Record<string, unknown> = {};
  try {
    rows.push(
      '| script | raw KB | gzip KB | brotli KB | eval ms (median) | eval + microtasks ms (median) | first request ms (median) |',
      '|---|---|---|---|---|---|---|',
    );
    // round robin: run r of every script before run r+1 of any, so drift of the machine during
    // the run (a warming browser, a busy neighbour) spreads evenly instead of favouring one row
    const items = [...builds, ...peers];
    const firstOf = (item: (typeof items)[number]): RegExp | null =>
      'first' in item ? (item.first as RegExp | null) : /com_jrealtimeanalytics/;
    const codes = items.map((item) => readFileSync(item.file, 'utf8'));
    const samples = items.map(() => [] as Array<{ evalMs: number; bootMs: number; firstMs: number | null }>);
    for (let run = 0; run < RUNS; run++)
      for (const [i, item] of items.entries()) samples[i]!.push(await startUp(browser, server, codes[i]!, firstOf(item)));
    for (const [i, item] of items.entries()) {
      const size = sizes(item.file);
      let gzip = size.gzip;
      let brotli = size.brotli;
      let raw = size.raw;
      if ('css' in item && typeof item.css === 'string') {
        const css = sizes(item.css);
        raw += css.raw;
        gzip += css.gzip;
        brotli += css.brotli;
      }
      const first = firstOf(item);
      const runs = samples[i]!;
      const evalMs = median(runs.map((r) => r.evalMs));
      const bootMs = median(runs.map((r) => r.bootMs));
      const firstMs = first ? median(runs.map((r) => r.firstMs ?? NaN)) : null;
      figures[item.name] = { raw, gzip, brotli, evalMs, bootMs, firstMs };
      rows.push(`| ${item.name} | ${kb(raw)} | ${kb(gzip)} | ${kb(brotli)} | ${ms(evalMs)} | ${ms(bootMs)} | ${ms(firstMs)} |`);
      console.log(rows.at(-1));
    }

    console.log('first visits (4x CPU throttling)...');
    const first = await firstVisits(browser, plausible);
    figures.firstVisit = first;
    const firstRows = firstVisitRows(first);
    console.log(firstRows.join('\n'));

    const selector = await selectorCost(browser, server, selectorHelpers);
    figures.selector = selector;
    const cls = await layoutShift(browser, server, 'pagepulse.iife.js');
    const clsLite = await layoutShift(browser, server, 'pagepulse.lite.iife.js');
    figures.cls = { react: cls, lite: clsLite };
    const memory: Record<string, string> = {};
    for (const bundle of ['pagepulse.iife.js', 'pagepulse.lite.iife.js']) {
      process.env.PAGEPULSE_BUNDLE = bundle;
      const samples = await longSession(browser, BEATS, [600, BEATS]);
      memory[bundle] = samples
        .map((s) => `${s.beats} beats: ${s.nodes} nodes, ${(s.heapUsed / 1024).toFixed(0)} KiB heap`)
        .join('; ');
    }
    figures.memory = memory;

    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadavg()[0]!.toFixed(1)} at the end (other work on the machine slows every row alike; compare rows of one run), node ${process.version}, ${execFileSync(
      '/usr/bin/chromium',
      ['--version'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    )
      .toString()
      .trim()
      .split('\n')
      .pop()}`;
    const report = [
      '# Benchmarks',
      '',
      `Latest run of \`npm run bench\` (${new Date().toISOString().slice(0, 10)}) on ${machine}.`,
      `Start-up figures are medians over ${RUNS} fresh browser contexts per script, taken round robin; each script is evaluated inline after load (the bookmarklet path: the whole boot runs at once) with Statistiken already allowed (no banner), so fetch time is excluded. "eval" is the script's synchronous run; "eval + microtasks" lasts until the first task after it, so it also counts work chained on promises (the eager build evaluates its UI modules during eval, before the tracker starts) and any style and layout the browser does before that task; "first request" is from the start of evaluation to the first heartbeat (Plausible: its first event) leaving the page.`,
      '',
      ...rows,
      '',
      `Click selector on a DOM nested ${selector.depth} deep with six classes per element (median per element): ours ${selector.ours.toFixed(1)} µs, @medv/finder ${selector.finder.toFixed(1)} µs; every selector of ours matched exactly its element: ${selector.unique}; finder (timeoutMs 1000, maxNumberOfPathChecks 2000, because its defaults overflow the stack here) gave up on ${selector.finderFailures} of ${selector.targets} elements.`,
      '',
      `Layout shift (CLS, sum of layout-shift entries without recent input): banner appearing ${shift(cls.banner)} (lite ${shift(clsLite.banner)}), after accepting and the reload ${shift(cls.accepted)} (lite ${shift(clsLite.accepted)}).`,
      '',
      `First visit to demo/index.html (no cookies: the banner shows), 4x CPU throttling through CDP, median of ${FIRST_RUNS} fresh contexts per page taken round robin, served like the Lighthouse run below. ScriptDuration is Chromium's (Performance.getMetrics) for the whole page 1 s after the banner's first frame; "over the bare page" subtracts the page's own site.js. The banner's first frame is the first animation frame that finds it (ours: the \`.banner\` in \`<pagepulse-consent>\`; cookieconsent: \`html.show--consent\`, whose modal then fades in), in ms from navigation start. The bare React widget (scripts/bench/react-widget-entry.tsx) renders the same banner elements with the same styles through React 19's createRoot when its script runs: the React build's overhead is taken over it. Goals: lite at most 1.0x cookieconsent over the bare page, per round (docs/decisions.md, "Performance, round 3"); React's overhead over the widget at most cookieconsent's own, lite's banner first frame no later than cookieconsent's (docs/decisions.md, "Start-up order"). React's first frame is reported but no longer held to cookieconsent's ("Performance, round 3").${process.env.BENCH_BEFORE ? ` "PagePulse lite (before)" is the older lite build in BENCH_BEFORE, measured in the same rounds.` : ''}`,
      '',
      ...firstRows,
      '',
      `Long session, ${BEATS} heartbeats at 10 ms with debug on (each figure the smallest of three readings a few beats apart, each after a forced GC): React ${memory['pagepulse.iife.js']}; lite ${memory['pagepulse.lite.iife.js']}.`,
      '',
    ].join('\n');
    // last: Lighthouse takes its own Chromium, so the machine is otherwise quiet
    await browser.close();
    console.log('lighthouse...');
    // BENCH_LIGHTHOUSE=0 keeps the section of an earlier (or separate) run: `npx tsx scripts/bench/lighthouse.ts`
    const lighthouse =
      process.env.BENCH_LIGHTHOUSE === '0' ? { markdown: keptSection(), figures: null } : await lighthouseSection(plausible);
    figures.lighthouse = lighthouse.figures;
    writeFileSync('BENCHMARKS.md', `${report}\n${lighthouse.markdown}\n`);
    writeFileSync(resolve(BENCH_OUT, 'figures.json'), JSON.stringify(figures, null, 2));
    console.log(`\n${report}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
