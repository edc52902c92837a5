// The project's own ESLint rules (used by eslint.config.js): the layer table of docs/architecture.md
// and "only main.ts touches the page at start-up". Local rules instead of a plugin: both need the
// importing file's place in src/, which a path regex on the import string cannot see reliably.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * The module an import lands in: the first folder under src/, or the file name for a root file
 * (`env.d.ts`: `env`). Inside a `nested` folder the module is one level deeper: with `server`
 * nested, `server/store/visits.ts` is in `server/store`, `server/app.ts` is `server/app`.
 */
function moduleOf(file, srcDir, nested = []) {
  const rel = relative(srcDir, file);
  if (rel.startsWith('..') || rel === '') return null;
  const parts = rel.split(sep);
  const depth = nested.includes(parts[0]) && parts.length > 1 ? 2 : 1;
  const name = parts.slice(0, depth).join('/');
  return parts.length > depth ? name : name.replace(/(\.d)?\.(tsx?|mjs|js)$/, '');
}

/** The source file an import path names (`./store` -> `./store.ts`), or null. */
function fileOf(path) {
  for (const candidate of [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`, `${path}/index.tsx`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** Every relative import of a file, type-only ones included (they make a cycle too), as files. */
const importsCache = new Map();
function importsOf(file) {
  let found = importsCache.get(file);
  if (found) return found;
  const text = readFileSync(file, 'utf8');
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s*['"](\.[^'"]+)['"]/gm;
  found = [];
  for (const match of text.matchAll(pattern)) {
    const source = (match[1] ?? match[2] ?? match[3]).replace(/\?.*$/, '');
    const target = fileOf(resolve(dirname(file), source));
    if (target) found.push(target);
  }
  importsCache.set(file, found);
  return found;
}

/** A path of imports inside one module from `start` back to `goal`, or null. */
function cyclePath(start, goal, module, src, nested, seen = new Set()) {
  if (start === goal) return [goal];
  if (seen.has(start)) return null;
  seen.add(start);
  for (const next of importsOf(start)) {
    if (moduleOf(next, src, nested) !== module) continue;
    const rest = cyclePath(next, goal, module, src, nested, seen);
    if (rest) return [start, ...rest];
  }
  return null;
}

/** The file or folder an import string names, or null for a package import. */
function target(source, file) {
  if (!source.startsWith('.')) return null;
  return resolve(dirname(file), source.replace(/\?.*$/, ''));
}

/**
 * Options: { src: absolute src folder, allow: { module: [modules it may import] }, indexOnly: [modules],
 * leaves: [paths under src/ without extension that may be imported directly although their module is indexOnly],
 * nested: [folders of src/ whose subfolders and files are modules of their own (`server/store`)] }.
 */
const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'imports follow the layer table of docs/architecture.md' },
    schema: [{ type: 'object', additionalProperties: true }],
    messages: {
      layer: "'{{from}}' may not import '{{to}}' (docs/architecture.md#import-rules): {{source}}",
      deep: "import '{{to}}' through its index, not its internals: {{source}}",
      unknown:
        "'{{from}}' has no row in the layer table (LAYERS or COLLECTOR_LAYERS in eslint.config.js, docs/architecture.md#import-rules): add one before it imports anything",
      cycle: 'import cycle inside {{from}}/ (type-only imports count): {{path}}',
      outside: "'{{from}}' imports a file outside its layer table's folder: {{source}}",
    },
  },
  create(context) {
    const { src, allow, indexOnly = [], leaves = [], nested = [] } = context.options[0];
    const file = context.filename;
    const from = moduleOf(file, src, nested);
    if (from === null) return {};
    const allowed = allow[from];
    const check = (node, source) => {
      // a module without a row is reported once, by Program below (not a crash on its first import)
      if (typeof source !== 'string' || !allowed) return;
      const path = target(source, file);
      if (path === null) return;
      const to = moduleOf(path, src, nested);
      if (to === null) {
        // outside the table's folder: only packages and the table's own files may be imported
        context.report({ node, messageId: 'outside', data: { from, source } });
        return;
      }
      if (to === from) {
        // inside one module: no cycle, type-only imports included
        const next = fileOf(path);
        const cycle = next && cyclePath(next, file, from, src, nested);
        if (cycle) {
          const name = (f) => relative(src, f).split(sep).join('/');
          context.report({ node, messageId: 'cycle', data: { from, path: [file, ...cycle].map(name).join(' -> ') } });
        }
        return;
      }
      if (allowed !== '*' && !allowed.includes(to)) {
        context.report({ node, messageId: 'layer', data: { from, to, source } });
        return;
      }
      const inside = relative(resolve(src, to), path);
      const leaf = relative(src, path)
        .split(sep)
        .join('/')
        .replace(/\.(tsx?|mjs|js)$/, '');
      if (leaves.includes(leaf)) return;
      if (indexOnly.includes(to) && inside !== '' && inside !== 'index' && inside !== 'index.ts') {
        context.report({ node, messageId: 'deep', data: { to, source } });
      }
    };
    return {
      // fails closed: a module the table does not know is an error, whatever it imports
      Program: (node) => {
        if (!allowed) context.report({ node, messageId: 'unknown', data: { from } });
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/** Globals whose use at import time means the module acts on the page as soon as it is evaluated. */
const PAGE_GLOBALS = new Set([
  'window',
  'document',
  'globalThis',
  'self',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'customElements',
  'history',
]);

/** Type positions (`typeof globalThis` in an annotation) never run. */
const TYPE_NODES = new Set([
  'TSTypeAnnotation',
  'TSTypeQuery',
  'TSTypeReference',
  'TSTypeAliasDeclaration',
  'TSInterfaceDeclaration',
  'TSTypeParameterInstantiation',
  'TSModuleDeclaration',
]);

function inType(node) {
  for (let n = node.parent; n; n = n.parent) if (TYPE_NODES.has(n.type)) return true;
  return false;
}

const noTopLevelPage = {
  meta: {
    type: 'problem',
    docs: { description: 'only src/main.ts touches the page while the bundle evaluates' },
    schema: [],
    messages: {
      topLevel:
        "'{{name}}' used at module top level: only src/main.ts may touch the page at start-up; take it as a parameter instead",
    },
  },
  create(context) {
    return {
      'Program:exit'(program) {
        const scope = context.sourceCode.getScope(program);
        const global = scope.type === 'global' ? scope : (scope.upper ?? scope);
        // configured globals (languageOptions.globals) resolve to variables; the rest stay in `through`
        const declared = [...PAGE_GLOBALS].flatMap((name) => global.set.get(name)?.references ?? []);
        for (const ref of [...declared, ...global.through]) {
          const name = ref.identifier.name;
          if (!PAGE_GLOBALS.has(name)) continue;
          if ((ref.isTypeReference && !ref.isValueReference) || inType(ref.identifier)) continue;
          const kind = ref.from.variableScope.type;
          if (kind === 'module' || kind === 'global')
            context.report({ node: ref.identifier, messageId: 'topLevel', data: { name } });
        }
      },
    };
  },
};

/** The plugin object for eslint.config.js. */
export const pagepulse = { rules: { layers, 'no-top-level-page': noTopLevelPage } };
