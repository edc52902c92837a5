// `npm test`: type check, both builds and the admin app, unit suites (jsdom + happy-dom), the collector suite
// twice (SQLite, then a throwaway PostgreSQL), the Chromium browser suite against EACH built bundle, the
// shared engine scenarios (both bundles) in Chromium, Firefox and WebKit one after another, then a
// closing line per collector engine and per browser engine (`collector (postgres): N passed, N failed`,
// `firefox: N passed, N failed`) and one summary line `tests: N passed, N failed`.
// Parts: `node scripts/test.mjs types|lint|build|unit|collector|php|browser|engines|chromium|firefox|webkit ...`
// (`unit` runs the collector suite too; `collector` only it, on both engines; `php` the Joomla package's
// checks: php -l, the PHP 7.2 guard and phpunit, after a build).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

/** The Joomla package's PHP: every file through `php -l`, the PHP 7.2 guard on the plugin, then phpunit. */
const phpTotals = { passed: 0, failed: 0 };
function phpChecks() {
  const walk = (dir) =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
  const files = [...walk('joomla'), ...walk('test/php'), 'scripts/php-bench.php', 'scripts/php-compat.php'].filter((f) =>
    f.endsWith('.php'),
  );
  const lint = files.filter((file) => spawnSync('php', ['-l', file], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0);
  console.log(
    `\n=== php -l: ${files.length - lint.length} of ${files.length} files clean${lint.length ? `; failing: ${lint.join(', ')}` : ''}`,
  );
  if (lint.length) failedSteps.push('php -l');
  const plugin = walk('joomla').filter((f) => f.endsWith('.php'));
  step('PHP 7.2 guard (the plugin)', 'php', ['scripts/php-compat.php', ...plugin]);
  const junit = join(reports, 'phpunit.xml');
  step('phpunit (Joomla package)', 'phpunit', ['-c', 'test/php/phpunit.xml', '--log-junit', junit]);
  try {
    const suite = readFileSync(junit, 'utf8').match(/<testsuite\b[^>]*>/)?.[0] ?? '';
    const count = (name) => Number(suite.match(new RegExp(`\\b${name}="(\\d+)"`))?.[1] ?? 0);
    const failed = count('failures') + count('errors') + (count('tests') === 0 ? 1 : 0);
    phpTotals.passed = count('tests') - count('failures') - count('errors') - count('skipped');
    phpTotals.failed = failed;
  } catch {
    phpTotals.failed = 1; // no report: phpunit itself broke
  }
  totals.passed += phpTotals.passed;
  totals.failed += phpTotals.failed;
}

if (!existsSync('node_modules/.bin/vitest') || !existsSync('node_modules/.bin/vite')) {
  console.error('npm test: the dev dependencies are not installed. Run `npm ci` first (README, first lines).');
  process.exit(1);
}
const only = process.argv.slice(2);
const want = (what) => only.length === 0 || only.includes(what);
const engines = ENGINES.filter((engine) => want('engines') || want(engine));
const collector = want('unit') || want('collector');
const php = want('php');
const browsers = [...(want('browser') ? ['chromium'] : []), ...engines];
ensureBrowsers([
  ...new Set([
    ...browsers,
    ...(browsers.length ? ['openssl'] : []),
    ...(want('browser') || php ? ['php'] : []),
    ...(collector ? ['postgres'] : []),
  ]),
]);

// one project per environment (tsconfig.json lists them): the bundle, builds/tests/scripts, the collector's server, the admin app
if (want('types')) step('type check', 'npm', ['run', '--silent', 'typecheck']);
// ESLint (layers, promises, no page access at import) and prettier --check: docs/architecture.md
if (want('lint')) step('lint', 'npm', ['run', '--silent', 'lint']);
if (want('build') || want('browser') || php || engines.length) {
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
  // the Joomla package (dist/pagepulse-joomla.zip) with the bundles just built
  step('build (Joomla package)', 'npx', ['tsx', 'scripts/joomla-package.ts']);
}
if (php) phpChecks();
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
if (php) console.log(`php: ${phpTotals.passed} passed, ${phpTotals.failed} failed`);
if (failedSteps.length) console.log(`\nfailed steps: ${failedSteps.join(', ')}`);
if (engineTotals.size) console.log('');
for (const [engine, sum] of engineTotals) console.log(`${engine}: ${sum.passed} passed, ${sum.failed} failed`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
