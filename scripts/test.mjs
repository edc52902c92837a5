// `npm test`: type check, both builds and the admin app, unit suites (jsdom + happy-dom), collector suite, the
// browser suite against EACH built bundle, then one summary line `tests: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const BUNDLES = ['pagepulse.iife.js', 'pagepulse.lite.iife.js'];
const reports = mkdtempSync(join(tmpdir(), 'pagepulse-test-'));
const totals = { passed: 0, failed: 0 };
let failedSteps = [];

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}`);
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${run.status === 0 ? 'ok' : `FAILED (exit ${run.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (run.status !== 0) failedSteps.push(name);
  return run.status === 0;
}

function vitest(name, projects, env = {}) {
  const file = join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${file}`];
  step(name, 'npx', args, env);
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
  } catch {
    totals.failed += 1; // no report: the run itself broke
  }
}

if (!existsSync('node_modules/.bin/vitest') || !existsSync('node_modules/.bin/vite')) {
  console.error('npm test: the dev dependencies are not installed. Run `npm ci` first (README, first lines).');
  process.exit(1);
}
ensureChromium();
const only = process.argv.slice(2);
const want = (what) => only.length === 0 || only.includes(what);

if (want('types')) step('type check', 'npx', ['tsc', '--noEmit', '-p', '.']);
if (want('build') || want('browser')) {
  rmSync('dist', { recursive: true, force: true });
  step('build (React)', 'npx', ['vite', 'build', '--logLevel', 'warn']);
  step('build (lite)', 'npx', ['vite', 'build', '--mode', 'lite', '--logLevel', 'warn']);
  // the admin area (dist/admin/): the collector and browser suites sign in to it; not size-gated
  step('build (admin)', 'npx', ['vite', 'build', '-c', 'vite.admin.config.ts', '--logLevel', 'warn']);
  step('size budget', 'node', ['scripts/size-gate.mjs']);
}
if (want('unit')) vitest('unit (jsdom, happy-dom) and collector', ['unit-jsdom', 'unit-happy-dom', 'server']);
if (want('browser')) for (const bundle of BUNDLES) vitest(`browser (${bundle})`, ['browser'], { PAGEPULSE_BUNDLE: bundle });

rmSync(reports, { recursive: true, force: true });
if (failedSteps.length) console.log(`\nfailed steps: ${failedSteps.join(', ')}`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
