// A return visit's script time, paired: the demo page with consent given before the load (no
// banner, the tracker runs, the consented content is released), loaded cold (a fresh context: no
// HTTP or code cache, as Lighthouse's loads) with Playwright attached and traced with Lighthouse's
// own categories (some cost main-thread time themselves, as they do under Lighthouse) until
// RETURN_AFTER_MS (default 1500) after the load event, so the idle work is in it. The figure is
// Lighthouse's: the self time of the main thread's trace events in its "Script Evaluation" and
// "Script Parsing & Compilation" groups (mainthread-work-breakdown), times 4 (its mobile preset runs
// the CPU at full speed and multiplies: throttlingMethod "simulate"; RETURN_CPU=4 throttles instead
// and multiplies by 1). Two readings of each event: its wall time (`dur`, what Lighthouse adds up,
// which other work on the machine inflates) and its thread time (`tdur`, the time the thread ran,
// which it inflates far less: compare builds by it). Each reading is also split by script: an
// event's self time goes to the nearest enclosing event that names a script (`own`: the bundle's;
// RETURN_DETAIL=<n> prints the n largest items per variant: script, event kind, function, column).
// A round loads every variant once, back to back, each round starting one variant later and every
// other one backwards; medians and quartiles over the rounds, and per-round differences (minus the
// bare page, minus the variant's "before"). BENCH_BEFORE=<dir>: an older build's bundles in the same
// rounds. `npx tsx scripts/bench/return-visit.ts` (RETURN_RUNS rounds, default 9; RETURN_VARIANTS,
// default bare,peers,lite,react and the before variants).
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import Trace from 'lighthouse/core/gather/gatherers/trace.js';
import { beforeDir, ccCookie, startPageServer, type Variant } from './lighthouse';
import { bundleForPage, median } from './util';

/**
 * The categories Lighthouse traces with; RETURN_CATEGORIES=lean: the few the figure needs (which
 * cost less), or a comma-separated list of categories added to those.
 */
const LEAN = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'loading'];
const TRACE_CATEGORIES = process.env.RETURN_CATEGORIES
  ? [...LEAN, ...process.env.RETURN_CATEGORIES.split(',').filter((c) => c !== 'lean')]
  : (Trace.getDefaultTraceCategories() as string[]).filter((c) => c !== '-*');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.RETURN_RUNS ?? 9);
const AFTER = Number(process.env.RETURN_AFTER_MS ?? 1500);
const RATE = Number(process.env.RETURN_CPU ?? 1);
const MULTIPLIER = RATE === 1 ? 4 : 1;
const variants = (
  process.env.RETURN_VARIANTS ??
  ['bare', 'peers', 'lite', 'react', ...(beforeDir() ? ['liteBefore', 'reactBefore'] : [])].join(',')
).split(',') as Variant[];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  tid: number;
  pid: number;
  args?: { data?: Record<string, unknown> };
}
/** Lighthouse's task groups "Script Evaluation" and "Script Parsing & Compilation" (core/lib/tracehouse/task-groups.js). */
const SCRIPT = new Set([
  'EventDispatch',
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'TimerFire',
  'FireIdleCallback',
  'FireAnimationFrame',
  'RunMicrotasks',
  'V8.Execute',
  'v8.compile',
  'v8.compileModule',
  'v8.parseOnBackground',
]);
/** Lighthouse's other groups (parse HTML, style and layout, paint, GC, other): not script, and not the parent's. */
const OTHER_GROUPS = new Set(
  'ParseHTML ParseAuthorStyleSheet ScheduleStyleRecalculation UpdateLayoutTree InvalidateLayout Layout Animation HitTest PaintSetup Paint PaintImage RasterTask ScrollLayer UpdateLayer UpdateLayerTree CompositeLayers PrePaint MinorGC MajorGC BlinkGC.AtomicPhase ThreadState::performIdleLazySweep ThreadState::completeSweep BlinkGCMarking MessageLoop::RunTask TaskQueueManager::ProcessTaskFromWorkQueue ThreadControllerImpl::DoWork'.split(
    ' ',
  ),
);
const OWN = /\/(dist|before)\/pagepulse[\w.]*\.js$/;

interface Reading {
  wall: number;
  cpu: number;
  ownWall: number;
  ownCpu: number;
}
/** RETURN_DETAIL: the script thread time per variant, by script and the event naming it (kind, function, column), summed over the loads. */
const detail = new Map<string, Map<string, number>>();
let detailOf: Map<string, number> | null = null;

/** The main thread's script self time, Lighthouse's way, as wall and thread time, in all and the bundle's. */
function scriptTime(events: TraceEvent[]): Reading {
  const main = events.find((e) => e.name === 'ParseHTML');
  if (!main) throw new Error('no main-thread events');
  const mine = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const out: Reading = { wall: 0, cpu: 0, ownWall: 0, ownCpu: 0 };
  // a stack of open events: each event's self time is its time minus its direct children's
  const stack: Array<{ e: TraceEvent; selfWall: number; selfCpu: number; script: string | null; where: string; group: boolean }> =
    [];
  const close = (): void => {
    const top = stack.pop()!;
    if (!top.group) return;
    out.wall += top.selfWall;
    out.cpu += top.selfCpu;
    if (top.script && OWN.test(top.script)) {
      out.ownWall += top.selfWall;
      out.ownCpu += top.selfCpu;
    }
    const key = `${(top.script ?? '(no script)').replace(/^.*\//, '')} ${top.where}`;
    detailOf?.set(key, (detailOf.get(key) ?? 0) + top.selfCpu * MULTIPLIER);
  };
  for (const e of mine) {
    while (stack.length && e.ts >= stack.at(-1)!.e.ts + stack.at(-1)!.e.dur!) close();
    const parent = stack.at(-1);
    const known = SCRIPT.has(e.name) || OTHER_GROUPS.has(e.name);
    // in no group: Lighthouse gives it its parent's group, so its time stays the parent's self time
    if (parent && !known) continue;
    if (parent) {
      parent.selfWall -= e.dur! / 1000;
      parent.selfCpu -= (e.tdur ?? 0) / 1000;
    }
    const url = String(e.args?.data?.url ?? '') || null;
    stack.push({
      e,
      selfWall: e.dur! / 1000,
      selfCpu: (e.tdur ?? 0) / 1000,
      script: url ?? parent?.script ?? null,
      where: url
        ? `${e.name} ${String(e.args?.data?.functionName ?? '')}@${String(e.args?.data?.columnNumber ?? '')}`
        : parent?.script
          ? parent.where
          : `${e.name} ${String(e.args?.data?.type ?? '')}`,
      group: SCRIPT.has(e.name),
    });
  }
  while (stack.length) close();
  for (const k of Object.keys(out) as Array<keyof Reading>) out[k] *= MULTIPLIER;
  return out;
}

const quartiles = (values: number[]): [number, number, number] => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => {
    const i = (sorted.length - 1) * q;
    const lo = Math.floor(i);
    return sorted[lo]! + (sorted[Math.ceil(i)]! - sorted[lo]!) * (i - lo);
  };
  return [at(0.25), median(sorted), at(0.75)];
};
const fmt = ([q1, m, q3]: [number, number, number]): string => `${m.toFixed(1)} (${q1.toFixed(1)} to ${q3.toFixed(1)})`;

const consent = ['cookieconsent_status=allow; Path=/', 'cookieconsent_categories=1.2.3.4; Path=/'];
const plausible = await bundleForPage('scripts/bench/plausible-entry.ts', 'plausible');
const cookies: Partial<Record<Variant, string[]>> = { lite: consent, react: consent, liteBefore: consent, reactBefore: consent };
const server = await startPageServer(resolve(plausible), cookies);
if (variants.includes('peers')) cookies.peers = [await ccCookie(server.origin)];
const browser = await chromium.launch({
  executablePath: CHROME,
  // RETURN_JS_FLAGS: V8 flags for a what-if (`--no-enable-lazy-source-positions`: no re-parse for a stack's positions)
  args: ['--no-sandbox', ...(process.env.RETURN_JS_FLAGS ? [`--js-flags=${process.env.RETURN_JS_FLAGS}`] : [])],
});
const readings: Record<string, Reading[]> = Object.fromEntries(variants.map((v) => [v, []]));
const loads: number[] = [];
try {
  /** One cold load with the variant's cookies set before it. */
  const load = async (variant: Variant): Promise<Reading> => {
    const context = await browser.newContext();
    try {
      await context.addCookies(
        (cookies[variant] ?? []).map((c) => {
          const [pair] = c.split(';');
          const at = pair!.indexOf('=');
          return { name: pair!.slice(0, at), value: pair!.slice(at + 1), url: server.origin };
        }),
      );
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      if (RATE !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
      const events: TraceEvent[] = [];
      cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
      const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
      // Lighthouse's own categories: some cost main-thread time of their own (a stack on many
      // events; "enhanced traces" copy each script's source into the trace as it is compiled)
      await cdp.send('Tracing.start', {
        traceConfig: { includedCategories: TRACE_CATEGORIES.filter((c) => !c.includes('screenshot')) },
      } as never);
      await page.goto(`${server.origin}/v/${variant}/return/`, { waitUntil: 'load' });
      await page.waitForTimeout(AFTER);
      await cdp.send('Tracing.end');
      await done;
      return scriptTime(events);
    } finally {
      await context.close();
    }
  };
  await load(variants[0]!); // a fresh browser's first load is slower: thrown away
  for (let round = 0; round < RUNS; round++) {
    // each round starts one variant later, and every other round runs backwards: a variant follows
    // its "before" as often as it precedes it
    const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
    if (round % 2) order.reverse();
    for (const variant of order) {
      detailOf = detail.get(variant) ?? detail.set(variant, new Map()).get(variant)!;
      readings[variant]!.push(await load(variant));
    }
    loads.push(loadavg()[0]!);
    process.stderr.write(`round ${round + 1}/${RUNS}, load ${loadavg()[0]!.toFixed(1)}\n`);
  }
} finally {
  await browser.close();
  await server.close();
}

const [l1, lm, l3] = quartiles(loads);
console.log(
  `Return visit, demo page, cold loads, CPU ${RATE}x (x${MULTIPLIER}); ${RUNS} rounds; load average (1 min) after each round ${lm.toFixed(1)} (${l1.toFixed(1)} to ${l3.toFixed(1)})`,
);
const table = (title: string, key: keyof Reading): void => {
  const figure = Object.fromEntries(variants.map((v) => [v, readings[v]!.map((r) => r[key])]));
  console.log(`\n${title}`);
  console.log(
    '| variant | ms, median (quartiles) | over the bare page, per round | minus its before, per round | less than before in |',
  );
  console.log('|---|---|---|---|---|');
  for (const v of variants) {
    const values = figure[v]!;
    const bare = figure.bare;
    const added = bare && v !== 'bare' ? fmt(quartiles(values.map((x, i) => x - bare[i]!))) : '';
    const before = v === 'lite' ? figure.liteBefore : v === 'react' ? figure.reactBefore : undefined;
    const diff = before ? values.map((x, i) => x - before[i]!) : null;
    console.log(
      `| ${v} | ${fmt(quartiles(values))} | ${added} | ${diff ? fmt(quartiles(diff)) : ''} | ${diff ? `${diff.filter((d) => d < 0).length} of ${RUNS}` : ''} |`,
    );
  }
  if (figure.bare && figure.peers && !key.startsWith('own')) {
    const peers = figure.peers.map((x, i) => x - figure.bare![i]!);
    for (const v of variants.filter((x) => x !== 'bare' && x !== 'peers'))
      console.log(
        `${v}: added / peers' added, per round ${fmt(quartiles(figure[v]!.map((x, i) => (x - figure.bare![i]!) / peers[i]!)))}x`,
      );
  }
};
table("Script main-thread time of the page, Lighthouse's groups, wall time (dur)", 'wall');
table('The same in thread time (tdur: not inflated by other work on the machine)', 'cpu');
table("Of it, the bundle's (self time under the nearest event naming the bundle), wall", 'ownWall');
table("The bundle's, thread time", 'ownCpu');
if (process.env.RETURN_DETAIL)
  for (const [variant, byWhere] of detail) {
    console.log(`\n${variant}: script thread time by script and the event naming it, mean per load (x${MULTIPLIER}), ms`);
    for (const [where, ms] of [...byWhere].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.RETURN_DETAIL) || 25))
      console.log(`${(ms / RUNS).toFixed(2).padStart(8)}  ${where}`);
  }
