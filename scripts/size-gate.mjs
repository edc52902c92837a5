// Fails when a built bundle is over its gzip budget: every byte is paid on every visit.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Fixed budgets (gzip -9 bytes), see docs/decisions.md#size: the React build (the default tag) at most
 * 90 KB, the lite build (preact, for sites that count every kilobyte) at most 30 KB.
 */
export const BUDGETS = { 'dist/pagepulse.iife.js': 90 * 1024, 'dist/pagepulse.lite.iife.js': 30 * 1024 };

/**
 * Syntax the build target (es2022, vite.config.ts) would keep but Safari 15 cannot parse: class
 * static blocks (Safari 16.4). Checked here because a dependency update could bring one in.
 */
const UNSUPPORTED = [{ name: 'class static block (Safari 16.4+)', pattern: /\bstatic\s*\{/ }];

/** Raw, gzip and brotli sizes of a file. */
export function sizes(file) {
  const data = readFileSync(file);
  return {
    raw: data.length,
    gzip: gzipSync(data, { level: 9 }).length,
    brotli: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let failed = false;
  for (const [file, budget] of Object.entries(BUDGETS)) {
    const size = sizes(file);
    const margin = budget - size.gzip;
    failed ||= margin < 0;
    console.log(
      `${margin < 0 ? 'OVER' : 'ok  '} ${file}: ${size.gzip} B gzip, budget ${budget} B, ${margin < 0 ? `over by ${-margin}` : `margin ${margin}`} B (${size.raw} B raw, ${size.brotli} B brotli)`,
    );
    const code = readFileSync(file, 'utf8');
    for (const { name, pattern } of UNSUPPORTED) {
      if (!pattern.test(code)) continue;
      failed = true;
      console.log(`FAIL ${file}: contains a ${name}; iPhone Safari 15 could not run the bundle`);
    }
  }
  // the QA files, loaded on demand (never by a visitor who is not debugging): reported, not budgeted
  for (const [file, build] of [
    ['dist/pagepulse.heatmap.js', 'vite build -c vite.heatmap.config.ts'],
    ['dist/pagepulse.debug.lite.js', 'vite build --mode lite-debug'],
  ]) {
    try {
      const size = sizes(file);
      console.log(`info ${file}: ${size.gzip} B gzip (${size.raw} B raw), loaded only for QA`);
    } catch {
      console.log(`FAIL ${file}: missing (${build})`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}
