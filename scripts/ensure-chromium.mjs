// Make sure Debian's Chromium is there for the browser tests; install it when we are root.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Returns the Chromium path, installing Debian's package when missing and running as root. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) {
    console.error(`Chromium is missing at ${CHROMIUM}. Install Debian's package first:\n  sudo apt-get update && sudo apt-get install -y chromium`);
    process.exit(1);
  }
  console.log(`Chromium is missing at ${CHROMIUM}: installing Debian's chromium package...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const run = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed (exit ${run.status})`);
      process.exit(1);
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
    process.exit(1);
  }
  console.log(execFileSync(CHROMIUM, ['--version']).toString().trim());
  return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
