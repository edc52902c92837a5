// A first visit to the demo page (no cookies: the banner shows) under 4x CPU throttling through
// CDP, per variant, round robin: Chromium's ScriptDuration for the whole load and the banner's
// first frame. Part of `npm run bench`; alone: `npx tsx scripts/bench/first-visit.ts` (prints the
// table; BENCH_FIRST_RUNS sets the rounds, BENCH_BEFORE=<dir> adds the older lite build in <dir>).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeDir, FIRST_FRAME, paired, startPageServer, type Paired, type Variant } from './lighthouse';
import { BENCH_OUT, bundleForPage, median, ms } from './util';

/** Runs per first-visit figure (fresh context each, round robin). */
export const FIRST_RUNS = Number(process.env.BENCH_FIRST_RUNS ?? 9);
export const FIRST_VARIANTS = ['bare', 'cookieconsent', 'widget', 'lite', 'react'] as const satisfies readonly Variant[];
/** Lite's goal (docs/decisions.md "Performance, round 3"): (lite - bare) / (cookieconsent - bare) of ScriptDuration, per round. */
export const LITE_GOAL = 1.0;
/** BENCH_FIRST_ONLY=lite,react measures only these (while developing; the table needs all). */
const ONLY = process.env.BENCH_FIRST_ONLY?.split(',');
type Figure = { script: number; frame: number | null };
export type FirstVisits = Record<(typeof FIRST_VARIANTS)[number], Figure>;
/** The start-up figures per round: pages of one round share the machine's state at that moment. */
export interface PairedGoals {
  /** (lite - bare) / (cookieconsent - bare), ScriptDuration; goal <= 1.0 (docs/decisions.md "Performance, round 3"). */
  liteRatio: Paired;
  /** The same of the older lite build (BENCH_BEFORE), same goal; only with BENCH_BEFORE. */
  liteBeforeRatio?: Paired;
  /** (React - widget) - (cookieconsent - bare), ScriptDuration ms; goal <= 0 (docs/decisions.md "Start-up order"). */
  reactOverhead: Paired;
  /** Banner first frame minus cookieconsent's, ms; `met`: rounds with lite's no later (goal <= 0). */
  liteFrame: Paired;
  /** The same for React, reported only: not held to cookieconsent's any more (docs/decisions.md "Performance, round 3"); `met`: rounds not later. */
  reactFrame: Paired;
}
/** `liteBefore`: the older lite build's medians, only with BENCH_BEFORE. */
export type FirstVisitResult = FirstVisits & { liteBefore?: Figure; paired: PairedGoals };

/** The bare React widget (scripts/bench/react-widget-entry.tsx) as an IIFE in .bench/, with the same
 * V8 compile hint as our bundles (vite.config.ts), so the comparison is React's own cost. */
export const buildWidget = (): Promise<string> =>
  bundleForPage('scripts/bench/react-widget-entry.tsx', 'react-widget', '//# allFunctionsCalledOnLoad');

/**
 * Per variant: ScriptDuration (taken 1 s after the banner's first frame, or after load for the
 * bare page) and when the banner's first frame came (ms after navigation start); medians.
 */
export async function firstVisits(browser: Browser, plausible: string): Promise<FirstVisitResult> {
  await buildWidget();
  const before = beforeDir();
  const server = await startPageServer(plausible, {});
  const samples = new Map<string, Figure[]>();
  try {
    for (let run = 0; run < FIRST_RUNS; run++) {
      // each round starts one page later than the one before: no page always follows the same one
      const order: Variant[] = [...FIRST_VARIANTS, ...(before ? (['liteBefore'] as const) : [])];
      for (const variant of [...order.slice(run % order.length), ...order.slice(0, run % order.length)]) {
        if (ONLY && !ONLY.includes(variant)) continue;
        const context = await browser.newContext();
        if (variant === 'bare') await context.addInitScript('window.__noBanner = true;');
        await context.addInitScript(FIRST_FRAME);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await cdp.send('Performance.enable');
        await page.goto(`${server.origin}/v/${variant}/first/`, { waitUntil: 'load' });
        // the same Playwright calls on every page (its injected script costs the page script time too)
        await page.waitForFunction(
          (bare) => bare || (window as unknown as { __frameAt?: number }).__frameAt !== undefined,
          variant === 'bare',
          { timeout: 15000 },
        );
        const at = await page.evaluate(() => (window as unknown as { __frameAt?: number }).__frameAt ?? null);
        const frame = variant === 'bare' ? null : at;
        await page.waitForTimeout(1000);
        const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
        const script = (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? NaN) * 1000;
        samples.set(variant, [...(samples.get(variant) ?? []), { script, frame }]);
        if (process.env.BENCH_VERBOSE)
          console.log(`${variant}: ScriptDuration ${script.toFixed(1)} ms, first frame ${frame?.toFixed(0)} ms`);
        await context.close();
      }
    }
  } finally {
    await server.close();
  }
  const round = (variant: string, r: number): Figure => samples.get(variant)?.[r] ?? { script: NaN, frame: null };
  const rounds = Array.from({ length: FIRST_RUNS }, (_, r) => r);
  const script = (variant: string, r: number): number => round(variant, r).script;
  const frame = (variant: string, r: number): number => round(variant, r).frame ?? NaN;
  const overCc = (variant: string, r: number): number =>
    (script(variant, r) - script('bare', r)) / (script('cookieconsent', r) - script('bare', r));
  const out = {
    paired: {
      liteRatio: paired(
        rounds.map((r) => overCc('lite', r)),
        (v) => v <= LITE_GOAL,
      ),
      ...(before
        ? {
            liteBeforeRatio: paired(
              rounds.map((r) => overCc('liteBefore', r)),
              (v) => v <= LITE_GOAL,
            ),
          }
        : {}),
      reactOverhead: paired(
        rounds.map((r) => script('react', r) - script('widget', r) - (script('cookieconsent', r) - script('bare', r))),
        (v) => v <= 0,
      ),
      liteFrame: paired(
        rounds.map((r) => frame('lite', r) - frame('cookieconsent', r)),
        (v) => v <= 0,
      ),
      reactFrame: paired(
        rounds.map((r) => frame('react', r) - frame('cookieconsent', r)),
        (v) => v <= 0,
      ),
    },
  } as FirstVisitResult;
  for (const variant of [...FIRST_VARIANTS, ...(before ? (['liteBefore'] as const) : [])]) {
    const runs = samples.get(variant) ?? [{ script: NaN, frame: null }];
    out[variant] = {
      script: median(runs.map((r) => r.script)),
      frame: runs[0]!.frame === null ? null : median(runs.map((r) => r.frame ?? NaN)),
    };
  }
  return out;
}

/** The markdown table of a first-visit run, with the goal ratios (docs/decisions.md "Performance, round 3"; React's overhead: "Start-up order"). */
export function firstVisitRows(first: FirstVisitResult): string[] {
  const bare = first.bare.script;
  type Row = keyof FirstVisits | 'liteBefore';
  const fig = (v: Row): Figure => first[v] ?? { script: NaN, frame: null };
  const over = (v: Row): number => fig(v).script - bare;
  const cc = over('cookieconsent');
  const label: Record<Row, string> = {
    bare: 'no script (site.js only)',
    cookieconsent: 'vanilla-cookieconsent 3',
    widget: 'bare React 19 widget (same banner)',
    lite: 'PagePulse lite',
    liteBefore: 'PagePulse lite (before)',
    react: 'PagePulse (React)',
  };
  const ratio = (v: Row): string => `${(over(v) / cc).toFixed(2)}x cookieconsent (goal <= ${LITE_GOAL.toFixed(1)}x)`;
  const goal: Record<Row, string> = {
    bare: '',
    cookieconsent: '',
    widget: '',
    lite: ratio('lite'),
    liteBefore: ratio('liteBefore'),
    react: `${ms(first.react.script - first.widget.script)} ms over the widget (goal <= cookieconsent's ${ms(cc)} ms)`,
  };
  const rows: Row[] = [...FIRST_VARIANTS, ...(first.liteBefore ? (['liteBefore'] as const) : [])];
  const p = first.paired;
  const span = (x: Paired, unit: string, digits: number): string =>
    `${x.median.toFixed(digits)}${unit} (quartiles ${x.low.toFixed(digits)} to ${x.high.toFixed(digits)}${unit}`;
  const range = (x: Paired, unit: string, digits = 1): string =>
    `${span(x, unit, digits)}; goal held in ${x.met} of ${x.rounds} rounds)`;
  return [
    `Per round (the pages of one round load back to back, so they share the machine's state): lite over the bare page / cookieconsent's over it ${range(p.liteRatio, 'x', 2)}${p.liteBeforeRatio ? `, the older lite build (before) ${range(p.liteBeforeRatio, 'x', 2)}` : ''}; React's overhead over the widget minus cookieconsent's own ${range(p.reactOverhead, ' ms')}; banner first frame minus cookieconsent's: lite ${range(p.liteFrame, ' ms', 0)}; React, reported only (no goal), ${span(p.reactFrame, ' ms', 0)}; no later in ${p.reactFrame.met} of ${p.reactFrame.rounds} rounds).`,
    '',
    '| page | ScriptDuration ms (whole page) | over the bare page ms | goal | banner first frame ms |',
    '|---|---|---|---|---|',
    ...rows.map(
      (v) => `| ${label[v]} | ${ms(fig(v).script)} | ${v === 'bare' ? '' : ms(over(v))} | ${goal[v]} | ${ms(fig(v).frame)} |`,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { launch } = await import('../../test/support/browser');
  const browser = await launch();
  try {
    // Plausible as scripts/bench.ts builds it, when no earlier run left it in .bench/
    const plausible = resolve(BENCH_OUT, 'plausible.js');
    if (!existsSync(plausible)) await bundleForPage('scripts/bench/plausible-entry.ts', 'plausible');
    const first = await firstVisits(browser, plausible);
    console.log(firstVisitRows(first).join('\n'));
  } finally {
    await browser.close();
  }
}
