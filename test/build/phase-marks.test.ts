import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { MARKS, markPhases } from '../../scripts/bench/phase-marks';

it("the phases bench finds each of its marks' places in src/main.ts once", () => {
  const main = readFileSync('src/main.ts', 'utf8');
  const marked = markPhases(main);
  expect(marked.match(/performance\.mark\('pp:\d+'\);/g)).toHaveLength(MARKS.length + 1);
  // a place that is gone names itself
  expect(() => markPhases(main.replace('  const bannerNow = ', '  const showNow = '))).toThrow(
    'phases: src/main.ts no longer has exactly one "const bannerNow ="',
  );
});
