// `npm test`: type check and lint at once, both builds and the admin app, the Joomla package's PHP
// checks, then two lanes at once: the unit suites (jsdom + happy-dom) and the collector suite on a
// throwaway PostgreSQL in one, the shared engine scenarios (both bundles) in Chromium, Firefox and
// WebKit one after another in the other; then the collector suite on SQLite, and the Chromium browser
// suite against EACH built bundle; a closing line per collector engine and per browser engine
// (`collector (postgres): N passed, N failed`, `firefox: N passed, N failed`) and one summary line
// `tests: N passed, N failed`. Each step's line says its time and how many cores the machine kept busy.
// Parts: `node scripts/test.mjs types|lint|build|unit|collector|php|browser|engines|chromium|firefox|webkit ...`
// (`unit` runs the collector suite too; `collector` only it, on both engines; `php` the Joomla package's
// checks: php -l, the PHP 7.2 guard and phpunit, after a build).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBrowsers } from './ensure-browsers.mjs';

const BUNDLES = ['pagepulse.iife.js', 'pagepulse.lite.iife.js'];
const reports = mkdtempSync(join(tmpdir(), 'pagepulse-test-'));
const totals = { passed: 0, failed: 0 };
const ENGINES = ['chromium', 'firefox', 'webkit'];
/** Tests per engine: chromium counts its browser suite and its run of the shared scenarios. */
const engineTotals = new Map();
let failedSteps = [];

/**
 * The machine's busy CPU time in seconds, every process's (the database server's and the browsers'
 * too): /proc/stat's first line, all but idle and iowait. A step's share of it over its wall time is
 * how many of the cores it kept busy (docs/testing.md: where the run's time goes). Undefined off Linux.
 */
function busySeconds() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const ticks = fields.map(Number);
    return (ticks.reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) / 100;
  } catch {
    return undefined;
  }
}
/** `in 12.3 s, 1.4 of 2 cores busy` */
function took(started, busy) {
  const seconds = (Date.now() - started) / 1000;
  const now = busySeconds();
  const cores =
    now === undefined || busy === undefined ? '' : `, ${((now - busy) / seconds).toFixed(1)} of ${cpus().length} cores busy`;
  return `in ${seconds.toFixed(1)} s${cores}`;
}

/**
 * Run one step. `beside`: it runs at the same time as other steps (the steps of the other lane,
 * below), so its output is kept and printed whole when it ends, under its own `===` lines, and the
 * cores it reports are the machine's, theirs included.
 */
function step(name, command, args, env = {}, beside = false) {
  const started = Date.now();
  const busy = busySeconds();
  console.log(beside ? `\n=== ${name}: started (its output when it ends)` : `\n=== ${name}`);
  const output = [];
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: beside ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    if (beside) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (status) => {
      if (beside || output.length) {
        if (beside) console.log(`\n=== ${name}`);
        process.stdout.write(Buffer.concat(output));
      }
      const time = took(started, busy);
      console.log(
        `=== ${name}: ${status === 0 ? 'ok' : `FAILED (exit ${status})`} ${time}${beside ? ' (with the steps beside it)' : ''}`,
      );
      if (status !== 0) failedSteps.push(name);
      resolve(status === 0);
    });
  });
}

/** Failed tests of a vitest JSON report: file, full name and the first lines of the first error. */
function failures(report) {
  return report.testResults
    .flatMap((file) =>
      file.assertionResults
        .filter((test) => test.status === 'failed')
        .map((test) => ({ file: file.name, name: test.fullName, message: test.failureMessages[0] ?? file.message })),
    )
    .concat(
      // a file that failed before any test (an import or a hook) has no failed test of its own
      report.testResults
        .filter((file) => file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed'))
        .map((file) => ({ file: file.name, name: '(the file itself)', message: file.message })),
    );
}

/** Everything that failed (`failed`) or passed only on the rerun (`flaky`), printed again at the end. */
const failedTests = [];
const flakyTests = [];
const short = (message = '') => message.split('\n').slice(0, 4).join('\n      ');
const relative = (file) => file.replace(`${process.cwd()}/`, '');

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // no report: the run itself broke
  }
}

/**
 * Run vitest projects; `rerun`: the collector, browser and engine steps run the FILES that failed once more,
 * each in a fresh vitest process with a fresh browser and server (docs/testing.md, "Reruns"). A test
 * that fails twice fails the step; one that passes the second time passes it, and is named at the end
 * as flaky with its first failure, so a timing-sensitive test stays visible and gets fixed.
 */
async function vitest(name, projects, { env = {}, engine, rerun = false, beside = false } = {}) {
  const slug = name.replace(/\W+/g, '-');
  const run = async (files, suffix) => {
    const file = join(reports, `${slug}${suffix}.json`);
    const args = [
      'vitest',
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
      ...files,
    ];
    const ok = await step(suffix ? `${name}, rerun of ${files.length} file(s)` : name, 'npx', args, env, beside);
    const report = readReport(file);
    // the files that hold the step's wall time up: each runs on one worker, so the longest is its floor
    const longest = (report?.testResults ?? [])
      .map((r) => [relative(r.name), (r.endTime - r.startTime) / 1000])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4);
    if (longest.length) console.log(`    longest files: ${longest.map(([f, t]) => `${f} ${t.toFixed(0)} s`).join(', ')}`);
    return { ok, report };
  };
  const first = await run([], '');
  let passed = first.report?.numPassedTests ?? 0;
  let failed = first.report ? first.report.numFailedTests + (first.report.numTotalTests === 0 ? 1 : 0) : 1;
  const firstFailures = first.report ? failures(first.report) : [];
  if (rerun && first.report && firstFailures.length > 0) {
    const files = [...new Set(firstFailures.map((f) => relative(f.file)))];
    const second = await run(files, '-rerun');
    if (second.report) {
      const secondFailures = failures(second.report);
      const still = new Set(secondFailures.map((f) => `${f.file}\u0000${f.name}`));
      for (const f of firstFailures)
        (still.has(`${f.file}\u0000${f.name}`) ? failedTests : flakyTests).push({ step: name, ...f });
      for (const f of secondFailures)
        if (!firstFailures.some((g) => g.file === f.file && g.name === f.name))
          failedTests.push({ step: `${name}, rerun`, ...f });
      // the rerun files' counts replace the first run's for those files
      const firstInFiles = first.report.testResults
        .filter((r) => files.includes(relative(r.name)))
        .reduce((sum, r) => sum + r.assertionResults.filter((t) => t.status === 'passed').length, 0);
      passed = passed - firstInFiles + second.report.numPassedTests;
      failed = second.report.numFailedTests + (second.report.numTotalTests === 0 ? 1 : 0);
      // the step passes when nothing failed twice (its first run's exit code is forgiven)
      if (second.ok && failed === 0) failedSteps = failedSteps.filter((s) => s !== name);
    } else failedTests.push(...firstFailures.map((f) => ({ step: name, ...f })));
  } else failedTests.push(...firstFailures.map((f) => ({ step: name, ...f })));
  totals.passed += passed;
  totals.failed += failed;
  if (engine) {
    const sum = engineTotals.get(engine) ?? { passed: 0, failed: 0 };
    engineTotals.set(engine, { passed: sum.passed + passed, failed: sum.failed + failed });
  }
}

/** The Joomla package's PHP: every file through `php -l`, the PHP 7.2 guard on the plugin, then phpunit. */
const phpTotals = { passed: 0, failed: 0 };
async function phpChecks() {
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
  await step('PHP 7.2 guard (the plugin)', 'php', ['scripts/php-compat.php', ...plugin]);
  const junit = join(reports, 'phpunit.xml');
  await step('phpunit (Joomla package)', 'phpunit', ['-c', 'test/php/phpunit.xml', '--log-junit', junit]);
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

// the type check: one project per environment (tsconfig.json lists them): the bundle,
// builds/tests/scripts, the collector's server, the admin app; lint: ESLint (layers, promises, no
// page access at import) and prettier --check (docs/architecture.md). Both at once (one core each).
await Promise.all([
  ...(want('types') ? [step('type check', 'npm', ['run', '--silent', 'typecheck'], {}, true)] : []),
  ...(want('lint') ? [step('lint', 'npm', ['run', '--silent', 'lint'], {}, true)] : []),
]);
if (want('build') || want('browser') || php || engines.length) {
  rmSync('dist', { recursive: true, force: true });
  await step('build (React)', 'npx', ['vite', 'build', '--logLevel', 'warn']);
  await step('build (lite)', 'npx', ['vite', 'build', '--mode', 'lite', '--logLevel', 'warn']);
  // the QA files, loaded on demand: the heatmap overlay (either bundle) and the lite build's debug box
  await step('build (QA: heatmap overlay)', 'npx', ['vite', 'build', '-c', 'vite.heatmap.config.ts', '--logLevel', 'warn']);
  await step('build (QA: lite debug box)', 'npx', ['vite', 'build', '--mode', 'lite-debug', '--logLevel', 'warn']);
  // the admin area (dist/admin/): the collector and browser suites sign in to it; not size-gated
  await step('build (admin)', 'npx', ['vite', 'build', '-c', 'collector/vite.admin.config.ts', '--logLevel', 'warn']);
  // the collector compiled for production (`npm run collector`); the suites import its sources
  await step('build (collector)', 'npx', ['vite', 'build', '-c', 'collector/vite.server.config.ts', '--logLevel', 'warn']);
  await step('size budget', 'node', ['scripts/size-gate.mjs']);
  // the Joomla package (dist/pagepulse-joomla.zip) with the bundles just built
  await step('build (Joomla package)', 'npx', ['tsx', 'scripts/joomla-package.ts']);
}
if (php) await phpChecks();

/**
 * Two lanes at once (docs/testing.md, "Round 11"): the engine scenarios keep 1.1 to 1.2 of the two
 * cores busy (they wait on their intervals), the unit and collector suites 1.7 to 1.9; one after the
 * other they left most of a core idle for three minutes. Each lane runs its steps in order; each
 * step's output is printed whole when it ends. The collector suite on each storage engine:
 * PostgreSQL in the lane (its harness starts and stops a cluster; the multi-process test runs only
 * there), SQLite (the default) after the lanes; its failed files rerun as the browser steps' do: it
 * times real work too (a reader thread's hold, a statement's bound). The engine scenarios: one engine
 * per step (two of its browsers at once, vitest.config.ts).
 */
for (const name of [...(collector ? ['collector (sqlite)', 'collector (postgres)'] : []), ...browsers])
  engineTotals.set(name, { passed: 0, failed: 0 });
const suites = [
  ...(want('unit')
    ? [(beside) => vitest('unit (jsdom, happy-dom) and build edits', ['unit-jsdom', 'unit-happy-dom', 'build'], { beside })]
    : []),
  ...(collector
    ? [
        (beside) =>
          vitest('collector (postgres)', ['server'], {
            env: { PAGEPULSE_TEST_ENGINE: 'postgres' },
            engine: 'collector (postgres)',
            rerun: true,
            beside,
          }),
      ]
    : []),
];
const scenarios = engines.map(
  (engine) => (beside) =>
    vitest(`engine scenarios (${engine}, both bundles)`, ['engines'], {
      env: { PAGEPULSE_ENGINE: engine },
      engine,
      rerun: true,
      beside,
    }),
);
const lane = async (list, beside) => {
  for (const run of list) await run(beside);
};
const both = suites.length > 0 && scenarios.length > 0;
await Promise.all([lane(suites, both), lane(scenarios, both)]);
// the SQLite pass alone, after both lanes: its reader-thread file bounds the collector's own thread
// (100 ms), which a process starved by the steps beside it missed (round 7; 196 ms in round 11)
if (collector) await vitest('collector (sqlite)', ['server'], { engine: 'collector (sqlite)', rerun: true });
// the Chromium suite against each bundle: three Chromiums at once already keep both cores busy
if (want('browser'))
  for (const bundle of BUNDLES)
    await vitest(`browser (${bundle})`, ['browser'], { env: { PAGEPULSE_BUNDLE: bundle }, engine: 'chromium', rerun: true });

rmSync(reports, { recursive: true, force: true });
if (php) console.log(`php: ${phpTotals.passed} passed, ${phpTotals.failed} failed`);
for (const [title, list] of [
  ['passed only on the rerun (flaky: fix them)', flakyTests],
  ['failed', failedTests],
])
  if (list.length) {
    console.log(`\n${title}: ${list.length}`);
    for (const f of list) console.log(`  - [${f.step}] ${relative(f.file)} > ${f.name}\n      ${short(f.message)}`);
  }
if (failedSteps.length) console.log(`\nfailed steps: ${failedSteps.join(', ')}`);
if (engineTotals.size) console.log('');
for (const [engine, sum] of engineTotals) console.log(`${engine}: ${sum.passed} passed, ${sum.failed} failed`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
