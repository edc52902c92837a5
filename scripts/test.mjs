// `npm test`: type check, both builds and the admin app, unit suites (jsdom + happy-dom), the collector suite
// twice (SQLite, then a throwaway PostgreSQL), the Chromium browser suite against EACH built bundle, the
// shared engine scenarios (both bundles) in Chromium, Firefox and WebKit one after another, then a
// closing line per collector engine and per browser engine (`collector (postgres): N passed, N failed`,
// `firefox: N passed, N failed`) and one summary line `tests: N passed, N failed`.
// Parts: `node scripts/test.mjs types|lint|build|unit|collector|browser|engines|chromium|firefox|webkit ...`
// (`unit` runs the collector suite too; `collector` only it, on both engines).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBrowsers } from './ensure-browsers.mjs';

const BUNDLES = ['pagepulse.iife.js', 'pagepulse.lite.iife.js'];
const reports = mkdtempSync(join(tmpdir(), 'pagepulse-test-'));
const totals = { passed: 0, failed: 0 };
const ENGINES = ['chromium', 'firefox', 'webkit'];
/** Tests per engine: chromium counts its browser suite and its run of the shared scenarios. */
const engineTotals = new Map();
let failedSteps = [];

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}`);
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `=== ${name}: ${run.status === 0 ? 'ok' : `FAILED (exit ${run.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (run.status !== 0) failedSteps.push(name);
  return run.status === 0;
}

function vitest(name, projects, env = {}, engine = undefined) {
  const file = join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ];
  step(name, 'npx', args, env);
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
  } catch {
    failed = 1; // no report: the run itself broke
  }
  totals.passed += passed;
  totals.failed += failed;
  if (engine) {
    const sum = engineTotals.get(engine) ?? { passed: 0, failed: 0 };
    engineTotals.set(engine, { passed: sum.passed + passed, failed: sum.failed + failed });
  }
}

if (!existsSync('node_modules/.bin/vitest') || !existsSync('node_modules/.bin/vite')) {
  console.error('npm test: the dev dependencies are not installed. Run `npm ci` first (README, first lines).');
  process.exit(1);
}
const only = process.argv.slice(2);
const want = (what) => only.length === 0 || only.includes(what);
const engines = ENGINES.filter((engine) => want('engines') || want(engine));
const collector = want('unit') || want('collector');
ensureBrowsers([...new Set([...(want('browser') ? ['chromium'] : []), ...engines, ...(collector ? ['postgres'] : [])])]);

// one project per environment (tsconfig.json lists them): the bundle, builds/tests/scripts, the collector's server, the admin app
if (want('types')) step('type check', 'npm', ['run', '--silent', 'typecheck']);
// ESLint (layers, promises, no page access at import) and prettier --check: docs/architecture.md
if (want('lint')) step('lint', 'npm', ['run', '--silent', 'lint']);
if (want('build') || want('browser') || engines.length) {
  rmSync('dist', { recursive: true, force: true });
  step('build (React)', 'npx', ['vite', 'build', '--logLevel', 'warn']);
  step('build (lite)', 'npx', ['vite', 'build', '--mode', 'lite', '--logLevel', 'warn']);
  // the QA files, loaded on demand: the heatmap overlay (either bundle) and the lite build's debug box
  step('build (QA: heatmap overlay)', 'npx', ['vite', 'build', '-c', 'vite.heatmap.config.ts', '--logLevel', 'warn']);
  step('build (QA: lite debug box)', 'npx', ['vite', 'build', '--mode', 'lite-debug', '--logLevel', 'warn']);
  // the admin area (dist/admin/): the collector and browser suites sign in to it; not size-gated
  step('build (admin)', 'npx', ['vite', 'build', '-c', 'collector/vite.admin.config.ts', '--logLevel', 'warn']);
  // the collector compiled for production (`npm run collector`); the suites import its sources
  step('build (collector)', 'npx', ['vite', 'build', '-c', 'collector/vite.server.config.ts', '--logLevel', 'warn']);
  step('size budget', 'node', ['scripts/size-gate.mjs']);
}
if (want('unit')) vitest('unit (jsdom, happy-dom) and build edits', ['unit-jsdom', 'unit-happy-dom', 'build']);
// the collector suite on each storage engine: SQLite (the default) and PostgreSQL (its harness
// starts and stops a cluster; the multi-process test runs only there)
if (collector) {
  vitest('collector (sqlite)', ['server'], {}, 'collector (sqlite)');
  vitest('collector (postgres)', ['server'], { PAGEPULSE_TEST_ENGINE: 'postgres' }, 'collector (postgres)');
}
if (want('browser'))
  for (const bundle of BUNDLES) vitest(`browser (${bundle})`, ['browser'], { PAGEPULSE_BUNDLE: bundle }, 'chromium');
// one engine at a time: two browsers at once thrash the two cores and skew the timed scenarios
for (const engine of engines)
  vitest(`engine scenarios (${engine}, both bundles)`, ['engines'], { PAGEPULSE_ENGINE: engine }, engine);

rmSync(reports, { recursive: true, force: true });
if (failedSteps.length) console.log(`\nfailed steps: ${failedSteps.join(', ')}`);
if (engineTotals.size) console.log('');
for (const [engine, sum] of engineTotals) console.log(`${engine}: ${sum.passed} passed, ${sum.failed} failed`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
