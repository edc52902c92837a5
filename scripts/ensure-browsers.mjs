// Make sure Debian's browsers for the browser and engine suites (and PostgreSQL for the collector
// suite's second pass, PHP for the Joomla package's checks) are there; install what is missing when we are root, else say exactly what
// to run. Nothing is downloaded from elsewhere.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

/** MiniBrowser lives in the WebKitGTK library folder (webkit2gtk-driver brings it). */
function miniBrowser() {
  for (const triplet of existsSync('/usr/lib') ? readdirSync('/usr/lib').filter((d) => d.includes('-linux-')) : []) {
    for (const lib of ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0']) {
      if (existsSync(`/usr/lib/${triplet}/${lib}/MiniBrowser`)) return true;
    }
  }
  return false;
}
/** Debian's PostgreSQL server: /usr/lib/postgresql/<version>/bin/initdb (the test harness runs it). */
function postgresServer() {
  const base = '/usr/lib/postgresql';
  return existsSync(base) && readdirSync(base).some((version) => existsSync(`${base}/${version}/bin/initdb`));
}
const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** Per engine: the Debian packages it needs, whether they are there, and a version line. */
export const ENGINE_PACKAGES = {
  chromium: {
    packages: ['chromium'],
    present: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    version: () =>
      execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'])
        .toString()
        .trim(),
  },
  firefox: {
    packages: ['firefox-esr'],
    present: () => existsSync(process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'),
    version: () =>
      execFileSync(process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', ['--version'])
        .toString()
        .trim(),
  },
  webkit: {
    packages: ['webkit2gtk-driver', 'xvfb'],
    present: () => existsSync(process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver') && miniBrowser() && onPath('Xvfb'),
    version: () => 'WebKitGTK (WebKitWebDriver, MiniBrowser) and Xvfb',
  },
  // not a browser: the vendor proxy of the browser and engine suites (test/support/vendor-proxy.ts) makes its certificate with it
  openssl: {
    packages: ['openssl'],
    present: () => onPath('openssl'),
    version: () => execFileSync('openssl', ['version']).toString().trim(),
  },
  // not a browser: the Joomla package's PHP checks (php -l, the PHP 7.2 guard on php-parser, phpunit;
  // unzip for the archive test) and the browser test that serves pages through the plugin with `php -S`;
  // ext-intl: the rewriter maps hosts as browsers do with it (RewriterTest runs that path only where it is)
  php: {
    packages: ['php-cli', 'php-xml', 'php-mbstring', 'php-intl', 'php-parser', 'phpunit', 'unzip'],
    present: () =>
      onPath('php') &&
      onPath('phpunit') &&
      onPath('unzip') &&
      existsSync('/usr/share/php/PhpParser/autoload.php') &&
      execFileSync('php', ['-r', 'echo function_exists("idn_to_ascii") ? 1 : 0;']).toString() === '1',
    version: () => execFileSync('php', ['-r', 'echo "PHP ", PHP_VERSION;']).toString().trim(),
  },
  // not a browser: the collector suite's PostgreSQL pass (test/support/postgres.ts) starts its own cluster
  postgres: {
    packages: ['postgresql'],
    present: postgresServer,
    version: () => `PostgreSQL ${readdirSync('/usr/lib/postgresql').join(', ')}`,
  },
};

/** Install the Debian packages of the engines that are missing (as root), else exit with the command to run. */
export function ensureBrowsers(engines = Object.keys(ENGINE_PACKAGES)) {
  const missing = engines.filter((engine) => !ENGINE_PACKAGES[engine].present());
  if (missing.length === 0) return;
  const packages = missing.flatMap((engine) => ENGINE_PACKAGES[engine].packages);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) {
    console.error(
      `Missing packages for the ${missing.join(', ')} suite(s). Install Debian's packages first:\n  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`,
    );
    process.exit(1);
  }
  console.log(`Missing packages for the ${missing.join(', ')} suite(s): installing Debian's ${packages.join(' ')}...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed (exit ${run.status})`);
      process.exit(1);
    }
  }
  for (const engine of missing) {
    if (!ENGINE_PACKAGES[engine].present()) {
      console.error(`apt-get installed ${ENGINE_PACKAGES[engine].packages.join(' ')} but ${engine} is still missing`);
      process.exit(1);
    }
    console.log(ENGINE_PACKAGES[engine].version());
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  ensureBrowsers(process.argv.slice(2).length ? process.argv.slice(2) : undefined);
