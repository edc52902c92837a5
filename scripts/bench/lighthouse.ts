// Lighthouse (mobile preset: simulated slow 4G, 4x CPU slowdown) on the demo page, served gzip:
// bare, with the peers (vanilla-cookieconsent + Plausible), with the lite and the React build (and,
// with BENCH_BEFORE=<dir>, an older build of both from that directory); a first visit (banner) and a
// return visit (consent given, tracker running). The main figure is the page's script main-thread
// time (no threshold), taken per round: every page of a round loads back to back, and each variant's
// cost over the bare page is set against the peers' of the same round. Part of `npm run bench`
// (scripts/bench.ts); alone: `npx tsx scripts/bench/lighthouse.ts` (LH_RUNS=1 while developing), which
// rewrites only its section of BENCHMARKS.md and writes .bench/lighthouse.json (LH_JSON=1 prints it).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { extname, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { BENCH_OUT, bundleForPage, median } from './util';

/** Rounds: every variant's page, both visits, back to back (docs/decisions.md "Performance, round 3" asks for 9). */
const RUNS = Number(process.env.LH_RUNS ?? 9);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
/** The demo page's own bundle tag, replaced per variant. */
const TAG =
  '<script src="/dist/pagepulse.iife.js" data-privacy-url="/kontakt/datenschutz.html" data-state-input="#pp-state"></script>';
export const SECTION_START = '<!-- lighthouse:start -->';
export const SECTION_END = '<!-- lighthouse:end -->';
/** Where the section's machine-readable summary goes. */
export const SUMMARY_FILE = resolve(BENCH_OUT, 'lighthouse.json');

/** The two bundles an older build is measured by. */
const BEFORE_FILES = ['pagepulse.iife.js', 'pagepulse.lite.iife.js'];

/**
 * BENCH_BEFORE=<dir>: a directory holding an older build's pagepulse.iife.js and
 * pagepulse.lite.iife.js, measured as the "(before)" variants in the same rounds as the current
 * build in dist/. `null` without it.
 */
export function beforeDir(): string | null {
  const dir = process.env.BENCH_BEFORE;
  if (!dir) return null;
  const missing = BEFORE_FILES.filter((f) => !existsSync(resolve(dir, f)));
  if (missing.length) throw new Error(`BENCH_BEFORE=${dir} has no ${missing.join(', ')}`);
  return resolve(dir);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

/** vanilla-cookieconsent started as its README shows (two categories, English texts), and shown to
 * automated browsers too: its default `hideFromBots` would hide the banner from Lighthouse. */
const CC_RUN = `CookieConsent.run({hideFromBots:false,categories:{necessary:{enabled:true,readOnly:true},analytics:{},marketing:{}},onConsent:()=>{if(CookieConsent.acceptedCategory('marketing'))for(const f of document.querySelectorAll('iframe[data-cc-src]'))f.src=f.dataset.ccSrc},language:{default:'en',translations:{en:{consentModal:{title:'We use cookies',description:'Cookies help us run this site and measure visits.',acceptAllBtn:'Accept all',acceptNecessaryBtn:'Reject all',showPreferencesBtn:'Manage preferences'},preferencesModal:{title:'Cookie preferences',acceptAllBtn:'Accept all',acceptNecessaryBtn:'Reject all',savePreferencesBtn:'Save preferences',sections:[{title:'Necessary',linkedCategory:'necessary'},{title:'Analytics',linkedCategory:'analytics'},{title:'Marketing',linkedCategory:'marketing'}]}}}}});`;

/**
 * The demo's consent-managed content in cookieconsent's own markup, so that the peers' page loads
 * what ours does once consent is given (the return visit): its two tags as cookieconsent-managed
 * scripts (`data-category` by name; cookieconsent reads `data-src` itself), and the video iframe
 * through the `onConsent` callback in CC_RUN (cookieconsent has no iframe blocking of its own; a
 * site adds those few lines or the iframemanager library). Throws when the demo's markup changed.
 */
function forCookieconsent(html: string): string {
  const names: Record<string, string> = { '3': 'analytics', '4': 'marketing' };
  let scripts = 0;
  let out = html.replace(/<script type="text\/plain" data-category="([34])"/g, (_m, id: string) => {
    scripts++;
    return `<script type="text/plain" data-category="${names[id]}"`;
  });
  const iframe = /<iframe data-category="4" data-src=/;
  if (scripts !== 2 || !iframe.test(out))
    throw new Error('demo/index.html: its consent-managed tags changed; update forCookieconsent()');
  out = out.replace(iframe, '<iframe data-cc-src=');
  return out;
}

/**
 * An init script that sets `window.__frameAt` in the first animation frame that finds the consent
 * banner (ours, or cookieconsent's \`show--consent\`): rAF callbacks run before that frame's paint.
 */
export const FIRST_FRAME = `(() => {
  const seen = () => document.querySelector('pagepulse-consent')?.shadowRoot?.querySelector('.banner') || document.documentElement.classList.contains('show--consent');
  // a page without a banner (window.__noBanner) stops looking once loaded, so its polling costs about what a banner page's does
  const tick = () => { if (seen()) window.__frameAt = performance.now(); else if (!(window.__noBanner && document.readyState === 'complete')) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();`;

/**
 * Page variants; `cookieconsent` (alone, without Plausible) and `widget` only for the first-visit
 * figures. `liteBefore` and `reactBefore`: the bundles in BENCH_BEFORE (see beforeDir()).
 */
export const ALL_VARIANTS = ['bare', 'peers', 'cookieconsent', 'widget', 'lite', 'react', 'liteBefore', 'reactBefore'] as const;
export type Variant = (typeof ALL_VARIANTS)[number];
/** The variants the Lighthouse section measures: with an older build to compare when BENCH_BEFORE is set. */
export const lighthouseVariants = (): Variant[] => [
  'bare',
  'peers',
  'lite',
  'react',
  // LH_WIDGET=1: the bare React 19 widget too, the floor of any React banner in one synchronous file
  // (first visit only: it shows its banner on every load, so its return row is not a return visit)
  ...(process.env.LH_WIDGET === '1' ? (['widget'] as const) : []),
  ...(beforeDir() ? (['liteBefore', 'reactBefore'] as const) : []),
];
export const LABEL: Record<Variant, string> = {
  bare: 'no script',
  peers: 'peers (cookieconsent + Plausible)',
  cookieconsent: 'vanilla-cookieconsent',
  widget: 'bare React 19 widget',
  lite: 'PagePulse lite',
  react: 'PagePulse (React)',
  liteBefore: 'PagePulse lite (before)',
  reactBefore: 'PagePulse (React) (before)',
};

function pageFor(variant: Variant): string {
  const html = readFileSync('demo/index.html', 'utf8');
  if (!html.includes(TAG)) throw new Error('demo/index.html no longer carries the bundle tag this bench replaces');
  const cookieconsent = `<link rel="stylesheet" href="/peers/cookieconsent.css"><script src="/peers/cookieconsent.umd.js"></script><script>${CC_RUN}</script>`;
  const tags: Record<Variant, string> = {
    bare: '',
    peers: `${cookieconsent}<script src="/peers/plausible.js"></script>`,
    cookieconsent,
    widget: '<script src="/peers/react-widget.js"></script>',
    lite: TAG.replace('pagepulse.iife.js', 'pagepulse.lite.iife.js'),
    react: TAG,
    liteBefore: TAG.replace('/dist/pagepulse.iife.js', '/before/pagepulse.lite.iife.js'),
    reactBefore: TAG.replace('/dist/pagepulse.iife.js', '/before/pagepulse.iife.js'),
  };
  const page = html.replace(TAG, tags[variant]);
  return variant === 'peers' || variant === 'cookieconsent' ? forCookieconsent(page) : page;
}

/**
 * A small page server: the demo's files gzip -9, the variants' pages (`/v/VARIANT/first|return/`),
 * `{}` for every collector call; `/before/` serves BENCH_BEFORE's bundles. `firstVisitCookies()`
 * counts first-visit pages requested with a cookie (a first visit must have none).
 */
export async function startPageServer(
  plausible: string,
  returnCookies: Partial<Record<Variant, string[]>>,
): Promise<{ origin: string; firstVisitCookies(): number; close(): Promise<void> }> {
  const before = beforeDir();
  const cache = new Map<string, Buffer>();
  let firstVisitCookies = 0;
  const file = (path: string): Buffer | null => {
    try {
      return readFileSync(path);
    } catch {
      return null;
    }
  };
  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    type: string,
    headers: Record<string, string | string[]> = {},
  ): void => {
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const key = `${req.url}|${body.length}`;
    const data = gzip ? (cache.get(key) ?? cache.set(key, gzipSync(body, { level: 9 })).get(key)!) : body;
    res.writeHead(200, {
      'content-type': type,
      'cache-control': 'no-cache',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      ...headers,
    });
    res.end(data);
  };
  const pagePath = new RegExp(`^/v/(${ALL_VARIANTS.join('|')})/(first|return)/$`);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const page = pagePath.exec(path);
    if (page) {
      const variant = page[1] as Variant;
      if (page[2] === 'first' && req.headers.cookie) firstVisitCookies++;
      send(
        req,
        res,
        Buffer.from(pageFor(variant)),
        TYPES['.html']!,
        page[2] === 'return' ? { 'set-cookie': returnCookies[variant] ?? [] } : {},
      );
      return;
    }
    if (path === '/index.php') {
      req.resume();
      send(req, res, Buffer.from('{}'), 'application/json');
      return;
    }
    const peers: Record<string, string> = {
      '/peers/cookieconsent.umd.js': 'node_modules/vanilla-cookieconsent/dist/cookieconsent.umd.js',
      '/peers/cookieconsent.css': 'node_modules/vanilla-cookieconsent/dist/cookieconsent.css',
      '/peers/plausible.js': plausible,
      '/peers/react-widget.js': resolve(BENCH_OUT, 'react-widget.js'),
      ...(before ? Object.fromEntries(BEFORE_FILES.map((f) => [`/before/${f}`, resolve(before, f)])) : {}),
    };
    const local =
      peers[path] ??
      (path.startsWith('/dist/')
        ? `dist/${path.slice(6)}`
        : path.startsWith('/assets/') || path.startsWith('/kontakt/')
          ? `demo${path}`
          : null);
    const body = local && !local.includes('..') ? file(local) : null;
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    send(req, res, body, TYPES[extname(local!)] ?? 'application/octet-stream');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    firstVisitCookies: () => firstVisitCookies,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** The cookie vanilla-cookieconsent writes after "Accept all", taken from a real run of it. */
export async function ccCookie(origin: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/v/peers/first/`);
    await page.waitForFunction(() => typeof (window as unknown as { CookieConsent?: unknown }).CookieConsent === 'object');
    await page.evaluate(() =>
      (window as unknown as { CookieConsent: { acceptCategory(c: string): void } }).CookieConsent.acceptCategory('all'),
    );
    const cookie = (await page.context().cookies()).find((c) => c.name === 'cc_cookie');
    if (!cookie) throw new Error('vanilla-cookieconsent wrote no cc_cookie');
    return `cc_cookie=${cookie.value}; Path=/`;
  } finally {
    await browser.close();
  }
}

interface Figures {
  /** Script main-thread time of the whole page, no threshold: scriptEvaluation + scriptParseCompile, ms. */
  script: number;
  /** `script` minus the bare page's of the same round (0 for the bare page). */
  added: number;
  lcp: number;
  tbt: number;
  /** Lighthouse's boot-up: only scripts with at least 50 ms of main-thread time; for reference. */
  bootup: number;
  unusedJs: number;
  bytes: number;
}

/** A figure taken per round (every page of one round loaded back to back), then summarised. */
export interface Paired {
  median: number;
  /** Lower and upper quartile of the per-round figures. */
  low: number;
  high: number;
  /** Rounds in which the goal held, of `rounds`. */
  met: number;
  rounds: number;
}

/** Median, quartiles and goal count of per-round figures. */
export function paired(values: number[], goal: (v: number) => boolean): Paired {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] ?? NaN;
  return { median: median(sorted), low: at(0.25), high: at(0.75), met: sorted.filter(goal).length, rounds: sorted.length };
}

const ALL_VISITS = ['first', 'return'] as const;
type Visit = (typeof ALL_VISITS)[number];
/** LH_VISITS=first: first visits only (the widget's floor needs no return visit; half the run). */
const VISITS: readonly Visit[] = process.env.LH_VISITS === 'first' ? ['first'] : ALL_VISITS;
/** The goals of docs/decisions.md "Performance, round 3": (variant - bare) / (peers - bare) of script main-thread time, per round, at most this. */
export const GOALS: Record<Visit, Partial<Record<Variant, number>>> = {
  // the widget is held to React's goals to show whether they can be reached at all
  first: { lite: 1.0, react: 1.3, widget: 1.3, liteBefore: 1.0, reactBefore: 1.3 },
  return: { lite: 1.0, react: 1.5, widget: 1.5, liteBefore: 1.0, reactBefore: 1.5 },
};
/** Issue 33's goals for the largest contentful paint: (variant - bare) / (peers - bare) of LCP, per round, at most this. */
export const LCP_GOALS: Partial<Record<Variant, number>> = {
  lite: 1.0,
  react: 1.5,
  widget: 1.5,
  liteBefore: 1.0,
  reactBefore: 1.5,
};
/** The variants held to a goal, in table order. */
const RATED = ['lite', 'react', 'widget', 'liteBefore', 'reactBefore'] as const satisfies readonly Variant[];

/** The LCP element's selector from its audit's details (a table, or a list whose first item is the table). */
function lcpElementOf(details: unknown): string {
  type Table = { items?: Array<{ node?: { selector?: string } }> };
  const d = details as (Table & { type?: string; items?: Array<Table & { node?: { selector?: string } }> }) | undefined;
  const first = d?.items?.[0];
  return first?.node?.selector ?? first?.items?.[0]?.node?.selector ?? '?';
}

/** The Lighthouse audits one load is summed up by. */
function figuresOf(
  audits: Record<string, { numericValue?: number; details?: unknown } | undefined>,
): Omit<Figures, 'added'> & { /** the element Lighthouse names as the LCP (its selector), for the log */ lcpElement: string } {
  const value = (id: string): number => Number(audits[id]?.numericValue ?? NaN);
  const unused = audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
  // items: { group: 'scriptEvaluation' | 'scriptParseCompile' | 'styleLayout' | ..., groupLabel, duration }, one per group
  const breakdown = audits['mainthread-work-breakdown']?.details as { items?: Array<{ group?: string; duration?: number }> };
  if (!breakdown?.items?.length) throw new Error('lighthouse gave no mainthread-work-breakdown items');
  const script = breakdown.items
    .filter((i) => i.group === 'scriptEvaluation' || i.group === 'scriptParseCompile')
    .reduce((sum, i) => sum + Number(i.duration ?? 0), 0);
  return {
    script,
    lcp: value('largest-contentful-paint'),
    lcpElement: lcpElementOf(audits['largest-contentful-paint-element']?.details),
    tbt: value('total-blocking-time'),
    bootup: value('bootup-time'),
    unusedJs: unused?.overallSavingsBytes ?? 0,
    bytes: value('total-byte-weight'),
  };
}

/** A per-round ratio or difference with the per-round values it summarises. */
type PairedWith = Paired & { goal?: number; perRound: number[] };

/** What .bench/lighthouse.json holds: enough to quote every figure of the section later. */
export interface LighthouseSummary {
  lighthouse: string;
  date: string;
  rounds: number;
  loadAverage: number;
  before: string | null;
  /** How `script` is taken. */
  script: string;
  visits: Record<
    Visit,
    {
      /** Per variant, per round (index = round), ms. */
      script: Partial<Record<Variant, number[]>>;
      bootup: Partial<Record<Variant, number[]>>;
      /** (variant - bare) / (peers - bare) of `script`, per round. */
      ratio: Partial<Record<Variant, PairedWith>>;
      /** `script` of the current build minus the older build's (BENCH_BEFORE), per round, ms. */
      nowMinusBefore?: { lite: PairedWith; react: PairedWith };
      /** Simulated LCP per variant, per round, ms, and the element Lighthouse named. */
      lcp: Partial<Record<Variant, number[]>>;
      lcpElement: Partial<Record<Variant, string[]>>;
      /** (variant - bare) / (peers - bare) of `lcp`, per round. */
      lcpRatio: Partial<Record<Variant, PairedWith>>;
    }
  >;
}

/** Run Lighthouse over every variant and visit; returns the markdown section for BENCHMARKS.md. */
export async function lighthouseSection(
  plausible: string,
): Promise<{ markdown: string; figures: Record<string, Figures>; summary: LighthouseSummary }> {
  const before = beforeDir();
  const variants = lighthouseVariants();
  const pending: Partial<Record<Variant, string[]>> = Object.fromEntries(variants.map((v) => [v, []]));
  const server = await startPageServer(plausible, pending);
  const consent = ['cookieconsent_status=allow; Path=/', 'cookieconsent_categories=1.2.3.4; Path=/'];
  for (const v of ['lite', 'react', 'liteBefore', 'reactBefore'] as const) pending[v]?.push(...consent);
  pending.peers!.push(await ccCookie(server.origin));
  // samples[visit][variant][round]
  type Sample = Omit<Figures, 'added'> & { lcpElement: string };
  const samples = Object.fromEntries(
    VISITS.map((visit) => [visit, Object.fromEntries(variants.map((v) => [v, [] as Sample[]]))]),
  ) as Record<Visit, Record<Variant, Sample[]>>;
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: FLAGS });
  const audit = (variant: Variant, visit: Visit) =>
    lighthouse(`${server.origin}/v/${variant}/${visit}/`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      formFactor: 'mobile',
      // cookies and storage too (Lighthouse's default keeps them): a first visit after a return
      // visit would otherwise carry the consent cookies the return page set
      clearStorageTypes: ['all'],
    });
  try {
    // a load thrown away: the first one in a fresh Chromium ran slower (one check: the bare page
    // opening the run 67 ms script time and 65 ms TBT, the same page later 37 and 0), and it would
    // fall on whichever page opens round 1
    await audit('peers', 'first');
    for (let run = 0; run < RUNS; run++) {
      // each round starts one page later than the one before: no page always follows the same one
      const order = [...variants.slice(run % variants.length), ...variants.slice(0, run % variants.length)];
      for (const visit of VISITS) {
        for (const variant of order) {
          const result = await audit(variant, visit);
          const audits = result?.lhr.audits;
          if (!audits) throw new Error(`lighthouse gave no result for ${variant}/${visit}`);
          if (server.firstVisitCookies())
            throw new Error(`a first visit (${variant}, round ${run + 1}) was requested with cookies`);
          const figures = figuresOf(audits);
          samples[visit][variant][run] = figures;
          console.log(
            `lighthouse round ${run + 1}/${RUNS} ${variant}/${visit}: script ${figures.script.toFixed(0)} ms, boot-up ${figures.bootup.toFixed(0)} ms, LCP ${figures.lcp.toFixed(0)} ms (${figures.lcpElement}), TBT ${figures.tbt.toFixed(0)} ms`,
          );
        }
      }
    }
  } finally {
    await chrome.kill();
    await server.close();
  }

  const version = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version;
  const load = loadavg()[0]!;
  const rounds = Array.from({ length: RUNS }, (_, r) => r);
  const round = (values: number[]): number[] => values.map((v) => Math.round(v * 10) / 10);
  const roundPaired = (p: Paired): Paired => ({
    ...p,
    median: Math.round(p.median * 1000) / 1000,
    low: Math.round(p.low * 1000) / 1000,
    high: Math.round(p.high * 1000) / 1000,
  });
  const withValues = (values: number[], goal?: number): PairedWith => ({
    // without a goal (a difference, now minus before): `met` counts the rounds it was below 0
    ...roundPaired(paired(values, (v) => (goal === undefined ? v < 0 : v <= goal))),
    ...(goal === undefined ? {} : { goal }),
    perRound: values.map((v) => Math.round(v * 1000) / 1000),
  });
  const summary: LighthouseSummary = {
    lighthouse: version,
    date: new Date().toISOString(),
    rounds: RUNS,
    loadAverage: Math.round(load * 10) / 10,
    before,
    script:
      'mainthread-work-breakdown: duration of scriptEvaluation + scriptParseCompile, whole page, no threshold (simulated 4x CPU, ms)',
    visits: {} as LighthouseSummary['visits'],
  };
  const figures: Record<string, Figures> = {};
  for (const visit of VISITS) {
    const of = samples[visit];
    const script = (v: Variant, r: number): number => of[v][r]!.script;
    const added = (v: Variant, r: number): number => script(v, r) - script('bare', r);
    const ratio: Partial<Record<Variant, PairedWith>> = {};
    for (const v of RATED.filter((x) => variants.includes(x)))
      ratio[v] = withValues(
        rounds.map((r) => added(v, r) / added('peers', r)),
        GOALS[visit][v],
      );
    const lcpAdded = (v: Variant, r: number): number => of[v][r]!.lcp - of.bare[r]!.lcp;
    const lcpRatio: Partial<Record<Variant, PairedWith>> = {};
    for (const v of RATED.filter((x) => variants.includes(x)))
      lcpRatio[v] = withValues(
        rounds.map((r) => lcpAdded(v, r) / lcpAdded('peers', r)),
        LCP_GOALS[v],
      );
    summary.visits[visit] = {
      lcp: Object.fromEntries(variants.map((v) => [v, round(of[v].map((f) => f.lcp))])),
      lcpElement: Object.fromEntries(variants.map((v) => [v, of[v].map((f) => f.lcpElement)])),
      lcpRatio,
      script: Object.fromEntries(variants.map((v) => [v, round(of[v].map((f) => f.script))])),
      bootup: Object.fromEntries(variants.map((v) => [v, round(of[v].map((f) => f.bootup))])),
      ratio,
      ...(before
        ? {
            nowMinusBefore: {
              lite: withValues(rounds.map((r) => script('lite', r) - script('liteBefore', r))),
              react: withValues(rounds.map((r) => script('react', r) - script('reactBefore', r))),
            },
          }
        : {}),
    };
    for (const v of variants) {
      const m = (k: keyof Omit<Figures, 'added'>): number => median(of[v].map((f) => f[k]));
      figures[`${v}/${visit}`] = {
        script: m('script'),
        added: median(rounds.map((r) => added(v, r))),
        lcp: m('lcp'),
        tbt: m('tbt'),
        bootup: m('bootup'),
        unusedJs: m('unusedJs'),
        bytes: m('bytes'),
      };
    }
  }
  mkdirSync(BENCH_OUT, { recursive: true });
  writeFileSync(SUMMARY_FILE, `${compactJson(summary)}\n`);

  const rows = [
    '| page | visit | script main-thread ms | added over the bare page ms | JS boot-up ms (reference only) | LCP ms | TBT ms | unused JS KB | transferred KB |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const visit of VISITS)
    for (const v of variants) {
      const f = figures[`${v}/${visit}`]!;
      rows.push(
        `| ${LABEL[v]} | ${visit} | ${f.script.toFixed(0)} | ${v === 'bare' ? '' : f.added.toFixed(0)} | ${f.bootup.toFixed(0)} | ${f.lcp.toFixed(0)} | ${f.tbt.toFixed(0)} | ${(f.unusedJs / 1024).toFixed(1)} | ${(f.bytes / 1024).toFixed(1)} |`,
      );
    }
  const x = (v: number): string => `${v.toFixed(2)}x`;
  const ratioRows = [
    "| page | visit | added / peers' added, median of rounds | quartiles | goal (docs/decisions.md) | rounds that met it |",
    '|---|---|---|---|---|---|',
  ];
  for (const visit of VISITS)
    for (const [v, p] of Object.entries(summary.visits[visit].ratio) as Array<[Variant, PairedWith]>)
      ratioRows.push(
        `| ${LABEL[v]} | ${visit} | ${x(p.median)} | ${x(p.low)} to ${x(p.high)} | <= ${x(p.goal!)} | ${p.met} of ${p.rounds} |`,
      );
  const lcpRows = [
    "| page | visit | LCP added over the bare page, median ms | added / peers' added, median of rounds | quartiles | goal (issue 33) | rounds that met it | LCP element (rounds) |",
    '|---|---|---|---|---|---|---|---|',
  ];
  const elements = (list: string[]): string =>
    Object.entries(list.reduce<Record<string, number>>((n, e) => ({ ...n, [e]: (n[e] ?? 0) + 1 }), {}))
      .sort((a, b) => b[1] - a[1])
      .map(([e, n]) => `\`${e}\` (${n})`)
      .join(', ');
  for (const visit of VISITS)
    for (const v of variants) {
      const s = summary.visits[visit];
      const p = s.lcpRatio[v];
      const added = median(rounds.map((r) => s.lcp[v]![r]! - s.lcp.bare![r]!));
      lcpRows.push(
        `| ${LABEL[v]} | ${visit} | ${v === 'bare' ? '' : added.toFixed(0)} | ${p ? x(p.median) : ''} | ${p ? `${x(p.low)} to ${x(p.high)}` : ''} | ${p ? `<= ${x(p.goal!)}` : ''} | ${p ? `${p.met} of ${p.rounds}` : ''} | ${elements(s.lcpElement[v]!)} |`,
      );
    }
  const diff = (p: PairedWith): string =>
    `${p.median.toFixed(0)} ms (quartiles ${p.low.toFixed(0)} to ${p.high.toFixed(0)} ms; less in ${p.met} of ${p.rounds} rounds)`;
  const beforeNote = before
    ? [
        '',
        `Now against before (\`${before}\`), script main-thread time of the current build minus the older build's, per round: ${VISITS.map(
          (visit) => {
            const d = summary.visits[visit].nowMinusBefore!;
            return `${visit} visit lite ${diff(d.lite)}, React ${diff(d.react)}`;
          },
        ).join('; ')}.`,
      ]
    : [];
  const markdown = [
    SECTION_START,
    '## Lighthouse',
    '',
    `Lighthouse ${version}, mobile preset (simulated slow 4G, 4x CPU slowdown), on demo/index.html served gzip -9 by a local page server; ${RUNS} round${RUNS === 1 ? '' : 's'} (load average ${load.toFixed(1)} at the end: other work on the machine inflates every row; compare rows of one run). After one load thrown away (a fresh Chromium's first is slower), a round loads every page below back to back, first visits then return visits, each round starting one page later; cookies and storage are cleared before every load. "first": no cookies, the banner shows. "return": consent given before the load (PagePulse \`cookieconsent_status=allow\`, \`cookieconsent_categories=1.2.3.4\`; cookieconsent the \`cc_cookie\` its own "Accept all" wrote), so no banner and the tracker runs. The peers: vanilla-cookieconsent 3 (JS + CSS, started with three categories; the demo's two consent-managed tags in its own markup and the video iframe through its \`onConsent\`, so that once consent is given its page loads what ours does) and @plausible-analytics/tracker on every visit.${before ? ` The "(before)" rows are an older build of both bundles (BENCH_BEFORE, \`${before}\`), measured in the same rounds with the same cookies.` : ''}${variants.includes('widget') ? ' The "bare React 19 widget" rows (LH_WIDGET=1) are scripts/bench/react-widget-entry.tsx: React 19 rendering the same banner and nothing else, the floor of any React banner in one synchronous file (docs/decisions.md, "Where the React build\'s floor lies"); it shows its banner on every load, so its "return" row is not a return visit.' : ''}`,
    '',
    `The figure compared is the **script main-thread time** of the whole page, with no threshold: the sum of the "Script Evaluation" and "Script Parsing & Compilation" groups (\`scriptEvaluation\`, \`scriptParseCompile\`) of Lighthouse's \`mainthread-work-breakdown\` audit, every script of the page counted (its 4x slowdown applied, as in Lighthouse's own table). "Added over the bare page" is a page's script time minus the bare page's of the same round; the ratio is taken per round, (page - bare) / (peers - bare), and summarised as median and quartiles over the rounds. Goals (docs/decisions.md, "Performance, round 3"): first visit lite <= 1.0x peers, React <= 1.3x; return visit lite <= 1.0x, React <= 1.5x. JS boot-up (\`bootup-time\`) is kept for reference only: it drops every script with less than 50 ms of main-thread time, so the peers' small files fall in or out of it from run to run. The other columns are medians of the rounds.`,
    '',
    ...rows,
    '',
    ...ratioRows,
    ...beforeNote,
    '',
    `The **largest contentful paint** (Lighthouse's simulated LCP), taken the same way: per round, (page - bare) / (peers - bare), median and quartiles over the rounds, with the element Lighthouse named as the LCP in each round. Goals (issue 33): lite <= 1.0x the peers', React <= 1.5x.`,
    '',
    ...lcpRows,
    SECTION_END,
  ].join('\n');
  return { markdown, figures, summary };
}

/** JSON with two-space indent, but every array of numbers on one line. */
function compactJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g,
    (_, list: string) => `[${list.split(/,\s*/).join(', ')}]`,
  );
}

/** Put the section into BENCHMARKS.md, replacing an earlier one. */
export function writeSection(markdown: string): void {
  let text = readFileSync('BENCHMARKS.md', 'utf8');
  const start = text.indexOf(SECTION_START);
  const end = text.indexOf(SECTION_END);
  text =
    start >= 0 && end > start
      ? text.slice(0, start) + markdown + text.slice(end + SECTION_END.length)
      : `${text.trimEnd()}\n\n${markdown}\n`;
  writeFileSync('BENCHMARKS.md', text);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // the widget as first-visit.ts builds it (buildWidget: same V8 compile hint as our bundles)
  if (process.env.LH_WIDGET === '1')
    await bundleForPage('scripts/bench/react-widget-entry.tsx', 'react-widget', '//# allFunctionsCalledOnLoad');
  const { markdown, summary } = await lighthouseSection(await bundleForPage('scripts/bench/plausible-entry.ts', 'plausible'));
  // LH_WRITE=0: print only, BENCHMARKS.md left as it is (a run of other variants than the section's)
  if (process.env.LH_WRITE !== '0') writeSection(markdown);
  console.log(markdown);
  console.log(`\nsummary: ${SUMMARY_FILE}`);
  if (process.env.LH_JSON === '1') console.log(JSON.stringify(summary));
}
