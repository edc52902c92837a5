// Fails when a built bundle grows past its gzip budget (issue 7): every byte is paid on every visit.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Budgets in bytes of gzip -9; the React build carries React 19 (~60 KB gzip by itself). */
export const BUDGETS = { 'dist/pagepulse.iife.js': 80 * 1024, 'dist/pagepulse.lite.iife.js': 22 * 1024 };

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
    console.log(`${ok ? 'ok  ' : 'OVER'} ${file}: ${size.raw} B raw, ${size.gzip} B gzip (budget ${budget}), ${size.brotli} B brotli`);
  }
  process.exit(over ? 1 : 0);
}
