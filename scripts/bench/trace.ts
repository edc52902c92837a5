// Where a first visit's script time goes, task by task: a Chromium trace of the demo page under 4x
// CPU throttling, listing each main-thread task that ran script (what kind, which script, how long)
// from navigation until 1 s after the banner's first frame. `npx tsx scripts/bench/trace.ts lite`
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { FIRST_FRAME, startPageServer } from './lighthouse';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: Record<string, unknown> };
}

// `lite` (first visit) or `lite/return` (consent given before the load, as the Lighthouse return visit)
const [variant = 'lite', visit = 'first'] = (process.argv[2] ?? 'lite').split('/');
const consent = ['cookieconsent_status=allow; Path=/', 'cookieconsent_categories=1.2.3.4; Path=/'];
const server = await startPageServer(resolve('.bench/plausible.js'), { lite: consent, react: consent });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const context = await browser.newContext();
  await context.addInitScript(FIRST_FRAME);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  if (visit === 'return') {
    // the server sets the cookies on the return page: load it once, then measure the next load
    await page.goto(`${server.origin}/v/${variant}/return/`, { waitUntil: 'load' });
    await context.clearCookies();
    await context.addCookies(
      consent.map((c) => {
        const [name, value] = c.split(';')[0]!.split('=');
        return { name: name!, value: value!, url: server.origin };
      }),
    );
    await page.goto('about:blank');
  }
  // traced from here: the events only arrive at Tracing.end, so a trace started before the return
  // visit's first load listed both loads
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'v8'] },
  } as never);
  await page.goto(`${server.origin}/v/${variant}/${visit}/`, { waitUntil: 'load' });
  if (variant !== 'bare' && visit === 'first')
    await page.waitForFunction(() => (window as unknown as { __frameAt?: number }).__frameAt !== undefined, null, {
      timeout: 15000,
    });
  await page.waitForTimeout(1000);
  await cdp.send('Tracing.end');
  await done;
  // the renderer's main thread: where the page's navigation events are
  const main = events.find((e) => e.name === 'ParseHTML' || e.name === 'EvaluateScript');
  if (!main) throw new Error('no main-thread events');
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = mine.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const t0 = Math.min(...mine.map((e) => e.ts));
  const scriptNames = new Set([
    'EvaluateScript',
    'FunctionCall',
    'RunMicrotasks',
    'TimerFire',
    'FireAnimationFrame',
    'FireIdleCallback',
    'EventDispatch',
    'v8.compile',
    'v8.parseOnBackground',
    'V8.CompileCode',
    'v8.compileModule',
    'XHRReadyStateChange',
    'V8.GCScavenger',
    'MajorGC',
    'MinorGC',
  ]);
  let total = 0;
  for (const task of tasks) {
    const inner = mine.filter((e) => e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0) && e !== task);
    const scripts = inner.filter(
      (e) =>
        e.name === 'EvaluateScript' ||
        e.name === 'FunctionCall' ||
        e.name === 'RunMicrotasks' ||
        e.name === 'v8.compile' ||
        e.name === 'V8.CompileCode',
    );
    if (scripts.length === 0) continue;
    // outermost script events only
    const outer = scripts.filter(
      (s) =>
        !scripts.some(
          (o) => o !== s && o.ts <= s.ts && o.ts + (o.dur ?? 0) >= s.ts + (s.dur ?? 0) && (o.dur ?? 0) > (s.dur ?? 0),
        ),
    );
    const ms = outer.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
    total += ms;
    if (ms < 0.3) continue;
    const what = [
      ...new Set(
        inner
          .filter((e) => scriptNames.has(e.name))
          .map((e) => {
            const d = e.args?.data ?? {};
            const url = String(d.url ?? d.scriptName ?? '').replace(server.origin, '');
            const fn = d.functionName ? ` ${d.functionName}` : d.type ? ` ${d.type}` : '';
            return `${e.name}${fn}${url ? ` ${url}` : ''}`;
          }),
      ),
    ]
      .slice(0, 6)
      .join(', ');
    if (process.env.TRACE_DETAIL && ms >= Number(process.env.TRACE_DETAIL))
      for (const e of inner.filter((x) => (x.dur ?? 0) >= 300).sort((a, b) => a.ts - b.ts))
        console.log(
          `          +${((e.ts - task.ts) / 1000).toFixed(1).padStart(6)} ${((e.dur ?? 0) / 1000).toFixed(1).padStart(6)} ms ${e.name} ${JSON.stringify(
            e.args?.data ?? {},
          )
            .replace(server.origin, '')
            .slice(0, 100)}`,
        );
    console.log(
      `${((task.ts - t0) / 1000).toFixed(0).padStart(6)} ms  task ${((task.dur ?? 0) / 1000).toFixed(1).padStart(6)} ms  script ${ms.toFixed(1).padStart(6)} ms  ${what}`,
    );
  }
  console.log(`script in tasks: ${total.toFixed(1)} ms`);
} finally {
  await browser.close();
  await server.close();
}
