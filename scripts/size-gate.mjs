// Fails when a built bundle grows past its gzip budget: every byte is paid on every visit.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Enforced budgets (gzip -9 bytes): today's sizes plus ~2 % headroom, a ratchet that only goes down.
 * Issue 7 asked for 80 KB (React) and 22 KB (lite); React 19 alone is 67.7 KB and preact/compat
 * 8.0 KB gzip, zod/mini at least 6 KB, which leaves 6-8 KB for the tracker, the consent widget, the
 * blocker, notifications and both languages. That gap needs a decision (see README, "Size").
 */
export const BUDGETS = { 'dist/pagepulse.iife.js': 96 * 1024, 'dist/pagepulse.lite.iife.js': 35 * 1024 };
/** What issue 7 asked for, printed beside the enforced budget. */
export const TARGETS = { 'dist/pagepulse.iife.js': 80 * 1024, 'dist/pagepulse.lite.iife.js': 22 * 1024 };

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
  let over = false;
  for (const [file, budget] of Object.entries(BUDGETS)) {
    const size = sizes(file);
    const ok = size.gzip <= budget;
    over ||= !ok;
    const target = TARGETS[file];
    console.log(
      `${ok ? 'ok  ' : 'OVER'} ${file}: ${size.raw} B raw, ${size.gzip} B gzip (budget ${budget}; issue target ${target}, ${size.gzip <= target ? 'met' : `missed by ${size.gzip - target} B`}), ${size.brotli} B brotli`,
    );
  }
  process.exit(over ? 1 : 0);
}
