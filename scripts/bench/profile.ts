// Where a first visit's time goes before the banner's first frame: a CPU profile of the lite and
// React builds on the demo page under 4x CPU throttling (CDP). `npx tsx scripts/bench/profile.ts`
// prints the functions with the most self time before the first frame, grouped by source module
// (through the hidden source maps in dist/), and when the banner's first frame came. `liteBefore` and
// `reactBefore` profile BENCH_BEFORE's bundles (maps beside them).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { ccCookie, FIRST_FRAME, startPageServer } from './lighthouse';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const variants = (process.argv[2] ?? 'lite,react,cookieconsent').split(',') as Array<
  'lite' | 'react' | 'cookieconsent' | 'liteBefore' | 'reactBefore'
>;

interface ProfileNode {
  id: number;
  parent?: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** A profile frame as `function source:line`, through the bundle's hidden source map when it has one. */
const maps = new Map<string, SourceMapConsumer | null>();
function where(f: ProfileNode['callFrame']): string {
  // /before/: BENCH_BEFORE's bundles (the `liteBefore` and `reactBefore` variants), maps beside them
  const [, dir, name] = /\/(dist|before)\/([\w.]+\.js)$/.exec(f.url) ?? [];
  const file = name && `${dir}/${name}`;
  if (file && !maps.has(file)) {
    try {
      const at = dir === 'before' ? `${process.env.BENCH_BEFORE}/${name}.map` : `dist/${name}.map`;
      maps.set(file, new SourceMapConsumer(JSON.parse(readFileSync(at, 'utf8'))));
    } catch {
      maps.set(file, null);
    }
  }
  const map = file ? maps.get(file) : null;
  if (map && f.lineNumber >= 0) {
    const o = map.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
    if (o.source)
      return `${o.name ?? f.functionName ?? '(anonymous)'} ${o.source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}:${o.line}`;
  }
  return `${f.functionName || '(anonymous)'} ${f.url}:${f.lineNumber}`;
}

// PROFILE_VISIT=return: consent given before the load (the Lighthouse run's return cookies), no
// banner; profiled until the load event plus PROFILE_AFTER_MS (default 1200: the idle work runs)
const visit = process.env.PROFILE_VISIT === 'return' ? 'return' : 'first';
// PROFILE_OURS=<n>: the n largest items under the bundle's frames (PROFILE_UNDER=<regex>: only samples
// with a frame, as `function source:line`, that it matches, e.g. 'watch.ts:119' for the observer)
const under = process.env.PROFILE_UNDER ? new RegExp(process.env.PROFILE_UNDER) : null;
const consent = ['cookieconsent_status=allow; Path=/', 'cookieconsent_categories=1.2.3.4; Path=/'];
const returnCookies: Partial<Record<string, string[]>> = {
  lite: consent,
  react: consent,
  liteBefore: consent,
  reactBefore: consent,
};
const server = await startPageServer(resolve('.bench/plausible.js'), returnCookies);
// cookieconsent's return visit: the cc_cookie its own "Accept all" writes (without it the page showed
// its banner, so it was no return visit)
if (visit === 'return' && variants.includes('cookieconsent')) returnCookies.cookieconsent = [await ccCookie(server.origin)];
const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox'] });
try {
  // PROFILE_RUNS: profiles per variant, summed and divided (the figures are then per-run means)
  const runs = Number(process.env.PROFILE_RUNS ?? 1);
  for (const variant of variants) {
    const self = new Map<string, number>();
    const inclusive = new Map<string, number>();
    // PROFILE_OURS: each sample under a frame of the bundle, by the innermost such frame (and the
    // browser call it was in, if any): what our own code costs, with the DOM work it asks for
    const ours = new Map<string, number>();
    // and by the outermost such frame: the entry the browser called (a listener, a callback, a promise job)
    const entries = new Map<string, number>();
    let script = 0;
    let frameAt = 0;
    let dcl = 0;
    const t0 = Date.now();
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      if (visit === 'return') await context.addInitScript('window.__noBanner = true;');
      await context.addInitScript(FIRST_FRAME);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Performance.enable');
      await cdp.send('Profiler.start');
      if (visit === 'return') {
        // the Set-Cookie comes with the page; the first load only stores it
        await page.goto(`${server.origin}/v/${variant}/return/`);
        await cdp.send('Profiler.stop');
        await cdp.send('Profiler.start');
        await page.goto(`${server.origin}/v/${variant}/return/`, { waitUntil: 'load' });
        await page.evaluate(() => ((window as unknown as { __frameAt: number }).__frameAt = performance.now()));
      } else {
        await page.goto(`${server.origin}/v/${variant}/first/`);
        await page.waitForFunction(() => (window as unknown as { __frameAt?: number }).__frameAt !== undefined, null, {
          timeout: 20000,
        });
      }
      // PROFILE_AFTER_MS: keep profiling this long after the first frame (the bench's window is 1000)
      await page.waitForTimeout(Number(process.env.PROFILE_AFTER_MS ?? (visit === 'return' ? 1200 : 0)));
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      const metrics = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
      const seen = await page.evaluate(() => {
        const w = window as unknown as { __frameAt: number };
        return { frameAt: w.__frameAt, nav: performance.getEntriesByType('navigation')[0]?.toJSON() as Record<string, number> };
      });
      frameAt += seen.frameAt / runs;
      dcl += (seen.nav.domContentLoadedEventStart ?? 0) / runs;
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      for (const n of profile.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
      for (const [i, id] of profile.samples.entries()) {
        const node = byId.get(id)!;
        const f = node.callFrame;
        const key = where(f);
        const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000 / runs;
        self.set(key, (self.get(key) ?? 0) + dt);
        // inclusive per source file: every file on the stack once
        const files = new Set<string>();
        for (let at: ProfileNode | undefined = node; at; at = at.parent === undefined ? undefined : byId.get(at.parent)) {
          const w = where(at.callFrame);
          files.add(`${w.split(' ').slice(1).join(' ').replace(/:\d+$/, '')}`);
          files.add(`fn ${w}`);
        }
        for (const file of files) inclusive.set(file, (inclusive.get(file) ?? 0) + dt);
        let own: ProfileNode | undefined = node;
        while (own && !/\/(dist|before)\/pagepulse[\w.]*\.js$/.test(own.callFrame.url))
          own = own.parent === undefined ? undefined : byId.get(own.parent);
        let inside = !under;
        for (
          let at: ProfileNode | undefined = node;
          at && !inside;
          at = at.parent === undefined ? undefined : byId.get(at.parent)
        )
          inside = under!.test(where(at.callFrame));
        if (own && inside) {
          const leaf =
            own === node
              ? ''
              : ` > ${node.callFrame.functionName || '(anonymous)'}${node.callFrame.url ? ' (other script)' : ''}`;
          const key = `${where(own.callFrame)}${leaf}`;
          ours.set(key, (ours.get(key) ?? 0) + dt);
          let entry = own;
          for (let at: ProfileNode | undefined = own; at; at = at.parent === undefined ? undefined : byId.get(at.parent))
            if (/\/(dist|before)\/pagepulse[\w.]*\.js$/.test(at.callFrame.url)) entry = at;
          const outer = where(entry.callFrame);
          entries.set(outer, (entries.get(outer) ?? 0) + dt);
        }
      }
      script += ((metrics.metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0) * 1000) / runs;
      await context.close();
    }
    console.log(
      `\n== ${variant} (mean of ${runs}): banner's first frame ${frameAt.toFixed(0)} ms (DOMContentLoaded ${dcl.toFixed(0)} ms; ${visit} visit), ScriptDuration ${script.toFixed(1)} ms (4x), wall ${Date.now() - t0} ms`,
    );
    for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`${ms.toFixed(1).padStart(7)} ms  ${key}`);
    if (process.env.PROFILE_OURS) {
      const total = [...ours.values()].reduce((a, b) => a + b, 0);
      console.log(`-- under the bundle's frames: ${total.toFixed(1)} ms; by innermost own frame (> the call it was in) --`);
      for (const [key, ms] of [...ours].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_OURS)))
        console.log(`${ms.toFixed(1).padStart(7)} ms  ${key}`);
      console.log('-- by the outermost own frame (the entry the browser called) --');
      for (const [key, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_OURS)))
        console.log(`${ms.toFixed(1).padStart(7)} ms  ${key}`);
    }
    if (process.env.PROFILE_MODULES) {
      // self time per source module (through the source map) and per script
      const modules = new Map<string, number>();
      for (const [key, ms] of self) {
        const file = key.split(' ').slice(1).join(' ').replace(/:\d+$/, '');
        const module = file.startsWith('http') ? file.replace(/^http:\/\/[^/]+/, '') : file.replace(/\/[^/]*$/, '/');
        modules.set(module, (modules.get(module) ?? 0) + ms);
      }
      console.log('-- self time per module folder --');
      for (const [key, ms] of [...modules].sort((a, b) => b[1] - a[1]).slice(0, 30))
        console.log(`${ms.toFixed(1).padStart(7)} ms  ${key}`);
    }
    if (process.env.PROFILE_INCLUSIVE) {
      console.log('-- inclusive (every frame on the stack counted once per sample) --');
      for (const [key, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_INCLUSIVE)))
        console.log(`${ms.toFixed(1).padStart(7)} ms  ${key}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
