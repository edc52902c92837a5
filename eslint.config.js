// ESLint 9 flat config. `npm run lint` runs it with `prettier --check`; formatting itself is
// Prettier's job (.prettierrc), so no stylistic rules here.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { pagepulse } from './scripts/lint-rules.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Who may import whom inside src/ (docs/architecture.md#import-rules). A key is a folder of src/ or a
 * root file without its extension; a module may always import itself. `main` wires everything.
 */
const LAYERS = {
  main: '*',
  heatmap: ['ui'],
  debug: ['ui'],
  api: ['context', 'config', 'i18n', 'platform', 'tracker', 'consent', 'joomla'],
  ui: ['context', 'config', 'i18n', 'platform', 'tracker', 'consent', 'joomla'],
  tracker: ['context', 'config', 'i18n', 'platform', 'joomla'],
  consent: ['context', 'config', 'i18n', 'platform', 'joomla'],
  joomla: ['context', 'i18n', 'platform'],
  context: ['config', 'i18n', 'platform'],
  config: ['i18n', 'platform'],
  i18n: [],
  platform: [],
  env: [],
};

/**
 * Who may import whom inside collector/ (docs/architecture.md "The collector"): the node server's
 * modules are `server/<folder or file>` (nested), beside them the admin app (`admin`, the browser)
 * and the API types and error codes both share (`shared`). A heartbeat goes edge -> visitor -> store and never
 * enters `server/admin`; the two features never import each other; SQL stays in `server/store`.
 */
const COLLECTOR_LAYERS = {
  'server/main': ['server/app', 'server/options', 'server/supervisor', 'server/visitor'],
  'server/supervisor': [],
  'server/options': ['server/admin', 'server/edge', 'server/visitor'],
  'server/app': ['server/admin', 'server/visitor', 'server/store', 'server/edge', 'server/calendar', 'server/jobs'],
  'server/jobs': ['server/store', 'server/calendar'],
  'server/admin': ['server/store', 'server/edge', 'server/calendar', 'shared'],
  'server/visitor': ['server/store', 'server/edge'],
  'server/store': [],
  // an error answer's code is the wire's, as the API types are (shared/error-codes.ts)
  'server/edge': ['shared'],
  'server/calendar': [],
  shared: [],
  admin: ['shared'],
  'vite.admin.config': [],
  'vite.server.config': [],
};

/**
 * Modules of `config` and `i18n` (indexOnly) that may still be imported directly: leaf modules that
 * import nothing, made on purpose for the lazily loaded consent view. Importing their values through
 * the index makes the bundler wrap config and both message tables in lazy-init functions to
 * keep evaluation order (+383 B gzip measured), so they are allowed here by name.
 */
const LEAVES = ['config/categories', 'i18n/format', 'i18n/debug'];

export default defineConfig([
  globalIgnores(['dist/', 'node_modules/', '.data/', 'coverage/', '.bench/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // type information for the promise rules: a dropped rejection is an exception in the host page
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      // `void promise` is not an answer either: a chain ends in settle() (src/platform/guard.ts),
      // which reports a rejection instead of leaving it unhandled in the host page
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { pagepulse },
    rules: {
      'pagepulse/layers': ['error', { src: `${root}src`, allow: LAYERS, indexOnly: ['config', 'i18n'], leaves: LEAVES }],
      'pagepulse/no-top-level-page': 'error',
    },
  },
  {
    files: ['collector/**/*.{ts,tsx}'],
    plugins: { pagepulse },
    rules: {
      'pagepulse/layers': [
        'error',
        {
          src: `${root}collector`,
          allow: COLLECTOR_LAYERS,
          nested: ['server'],
          // a feature and the store are entered through their index: Sql and the features' insides stay private
          indexOnly: ['server/store', 'server/visitor', 'server/admin'],
        },
      ],
    },
  },
  {
    // `react-dom` resolves to a stand-in in the React build (build/react-dom-internals.ts, which fails
    // the build for any other importer): a third importer would get the real entry and a second
    // internals object. The lite build aliases it to src/ui/lite/.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/ui/react-root.tsx', 'src/ui/lite/*'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-dom',
              message:
                'Only src/ui/react-root.tsx and src/ui/lite/ may import react-dom (build/react-dom-internals.ts says why).',
            },
          ],
        },
      ],
    },
  },
  {
    // the entry files are where the page is read, once, at evaluation
    files: ['src/main.ts', 'src/heatmap.ts', 'src/debug.ts'],
    rules: { 'pagepulse/no-top-level-page': 'off' },
  },
  {
    // the browser files share their worker's modules (vitest.config.ts `isolate: false`): a mock, a
    // stubbed global or fake timers in one would reach the files after it in that worker
    files: ['test/browser/**/*.ts', 'test/support/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubGlobal', 'stubEnv', 'useFakeTimers', 'spyOn'].map((property) => ({
          object: 'vi',
          property,
          message: 'Browser test files share their modules (vitest.config.ts isolate: false): no module or global state changes.',
        })),
      ],
    },
  },
]);
