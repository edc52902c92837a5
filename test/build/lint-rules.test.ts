import { resolve } from 'node:path';
import { Linter } from 'eslint';
import { expect, it } from 'vitest';
import { pagepulse } from '../../scripts/lint-rules.mjs';

// The layer rule fails closed: a folder of src/ the layer table does not know is reported by name,
// once, whatever it imports (it used to crash ESLint with a TypeError on the first import instead).
it('reports a module without a row in the layer table instead of crashing on its imports', () => {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    "import { settle } from '../platform/guard';\nimport { x } from './other';\nexport const y = [settle, x];\n",
    [
      {
        files: ['**/*.ts'],
        plugins: { pagepulse },
        rules: { 'pagepulse/layers': ['error', { src: resolve('src'), allow: { platform: [] } }] },
      },
    ],
    { filename: resolve('src/unlisted/probe.ts') },
  );
  expect(messages.map((m) => [m.ruleId, m.message])).toEqual([
    [
      'pagepulse/layers',
      "'unlisted' has no row in the layer table (LAYERS or COLLECTOR_LAYERS in eslint.config.js, docs/architecture.md#import-rules): add one before it imports anything",
    ],
  ]);
});
