import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * zod 4's `members()` and `derived()` (zod/v4/core/util.js) walk tables with `for...in` and no
 * own-property check, so a page whose old library added an ENUMERABLE method to Object.prototype
 * (`Object.prototype.extend = ...`) makes the bundle throw while it evaluates. Iterate own keys
 * instead. The build fails if zod's source no longer has these loops, so the patch cannot rot.
 */
function zodOwnKeys(): Plugin {
  const loops = ['for (const key in table) {', 'for (const key in computes) {'];
  return {
    name: 'pagepulse-zod-own-keys',
    transform(code, id) {
      if (!/zod[\\/]v4[\\/]core[\\/]util\.js$/.test(id)) return null;
      let out = code;
      for (const loop of loops) {
        if (!out.includes(loop)) this.error(`zod changed: "${loop}" not found in ${id}; re-check the Object.prototype guard`);
        const object = loop.slice('for (const key in '.length, -') {'.length);
        out = out.replace(loop, `for (const key of Object.keys(${object})) {`);
      }
      return { code: out, map: null };
    },
  };
}

/**
 * react-dom/client needs only the shared internals object of the `react-dom` entry, and our views
 * only its `flushSync` (src/ui/react-root.tsx); the rest of the entry's public API (portals,
 * resource hints: 3.5 KB raw) is code nothing here calls. Resolve react-dom/client's
 * `require("react-dom")` and the views' `react-dom` to src/ui/react-dom-internals.ts instead. The build
 * fails when react-dom's internals object no longer has the shape the stand-in copies.
 */
function reactDomInternals(): Plugin {
  const expected = `var Internals = {
    d: {
      f: noop,
      r: function () {
        throw Error(formatProdErrorMessage(522));
      },
      D: noop,
      C: noop,
      L: noop,
      m: noop,
      X: noop,
      S: noop,
      M: noop
    },
    p: 0,
    findDOMNode: null
  },`;
  const standIn = fileURLToPath(new URL('./src/ui/react-dom-internals.ts', import.meta.url));
  return {
    name: 'pagepulse-react-dom-internals',
    enforce: 'pre',
    resolveId(source, importer) {
      // react-dom/client's internals, and the views' flushSync (src/ui/react-root.tsx)
      if (
        source !== 'react-dom' ||
        !importer ||
        !/react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$|[\\/]src[\\/]ui[\\/]react-root\.tsx$/.test(importer)
      )
        return null;
      const entry = fileURLToPath(new URL('./node_modules/react-dom/cjs/react-dom.production.js', import.meta.url));
      if (!readFileSync(entry, 'utf8').includes(expected))
        this.error(`react-dom changed: its internals object in ${entry} no longer matches src/ui/react-dom-internals.ts`);
      return standIn;
    },
  };
}

/**
 * React's package is CommonJS: the bundler keeps all of its 44 exports although the views use five
 * (createElement, useEffect, useRef, useSyncExternalStore, and react-dom's internals). Turn
 * react.production.js's `exports.x = ...` statements into ESM exports so unused ones are dropped:
 * our `import ... from 'react'` goes straight to that module, react-dom/client's `require("react")`
 * to src/ui/react-internals.ts (the two names it reads). The build fails when React's module no
 * longer has this shape.
 */
function reactEsm(): Plugin {
  const reactModule = fileURLToPath(new URL('./node_modules/react/cjs/react.production.js', import.meta.url));
  const standIn = fileURLToPath(new URL('./src/ui/react-internals.ts', import.meta.url));
  return {
    name: 'pagepulse-react-esm',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'react/cjs/react.production.js') return reactModule;
      if (source !== 'react') return null;
      return importer && /react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/.test(importer) ? standIn : reactModule;
    },
    transform(code, id) {
      if (id !== reactModule) return null;
      const names: string[] = [];
      const body = code.replace(/^exports\.(\w+) =/gm, (_, name: string) => {
        names.push(name);
        return `var __export_${name} =`;
      });
      const out = `${body}\nexport { ${names.map((name) => `__export_${name} as ${name}`).join(', ')} };\n`;
      if (/\b(exports|module|require)\b/.test(body.replace(/^\s*\*.*$/gm, '')) || !names.includes('createElement'))
        this.error(`react changed: ${id} is no longer a module of top-level \`exports.x = ...\` statements`);
      return { code: out, map: null };
    },
  };
}

/**
 * zod/mini's schema prototype carries methods nothing here calls (`parse`, `parseAsync`,
 * `safeParseAsync`, `with`, `brand`, `register`, `apply`): as methods they are never tree-shaken,
 * and they pull in zod's throwing and async parse paths. We validate with `z.safeParse` and build
 * schemas with `.check`/`.clone` only. Drop those methods at build time; the build fails if zod's
 * source no longer has them in this form.
 */
/**
 * The lazily derived internals (`optin`, `optout`, `values`, `pattern`, `propValues`) that zod's
 * union, literal and pipe schemas declare for the schema kinds that read them: objects, optional
 * and default values, records, discriminated unions, template literals, JSON Schema output. We use
 * none of those kinds, so nothing ever reads them; dropping the declarations drops zod's lazy
 * internal machinery. Fails the build when a constructor no longer has them.
 */
function dropLazyInternals(code: string, id: string, fail: (message: string) => never): string {
  let out = code;
  for (const name of ['$ZodUnion', '$ZodLiteral', '$ZodPipe']) {
    const start = out.indexOf(`export const ${name} = /*@__PURE__*/ core.$constructor("${name}", (inst, def) => {`);
    const end = start < 0 ? -1 : out.indexOf('\n});\n', start);
    if (end < 0) fail(`zod changed: no ${name} constructor in ${id}`);
    let body = out.slice(start, end);
    const call = 'util.defineLazyInternal(inst, "';
    let dropped = 0;
    for (let at = body.indexOf(call); at >= 0; at = body.indexOf(call)) {
      let depth = 0;
      let i = at + 'util.defineLazyInternal'.length; // the call's opening parenthesis
      for (; i < body.length; i++) {
        if (body[i] === '(') depth++;
        else if (body[i] === ')' && --depth === 0) break;
      }
      if (body[i + 1] !== ';') fail(`zod changed: unexpected defineLazyInternal call in ${name} (${id})`);
      body = body.slice(0, at) + body.slice(i + 2);
      dropped++;
    }
    if (dropped === 0) fail(`zod changed: ${name} declares no lazy internals in ${id}`);
    out = out.slice(0, start) + body + out.slice(end);
  }
  return out;
}

function zodMiniMethods(): Plugin {
  const methods = [
    `    // \`with\` is an alias for \`check\`: the same function object, not a wrapper.
    get with() {
        return this.check;
    },
    set with(value) {
        util.own(this, "with", value);
    },
    parse(data, params) {
        return parse.parse(this, data, params, { callee: this.parse });
    },
    parseAsync(data, params) {
        return parse.parseAsync(this, data, params, { callee: this.parseAsync });
    },
`,
    `    safeParseAsync(data, params) {
        return parse.safeParseAsync(this, data, params);
    },
`,
    `    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
`,
  ];
  // the Standard Schema accessor (`schema['~standard']`, for libraries that accept any validator):
  // nothing here hands our schemas to such a library
  const standard = `{
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return util.hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        util.own(this, "~standard", value);
    },
});`;
  const backward = 'ctx.direction === "backward"';
  // a failed parse's error: we read its `issues` only; its lazily pretty-printed JSON `message`
  // and the `toString` it installs on its prototype are code nothing here runs
  const errorMessage = `    Object.defineProperty(inst, "message", _messageDesc);
    /* \`toString\` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
`;
  return {
    name: 'pagepulse-zod-mini-methods',
    transform(code, id) {
      if (/zod[\\/]v4[\\/]core[\\/]errors\.js$/.test(id)) {
        if (!code.includes(errorMessage)) this.error(`zod changed: $ZodError's initializer in ${id} is not as expected`);
        return { code: code.replace(errorMessage, ''), map: null };
      }
      if (/zod[\\/]v4[\\/]core[\\/]schemas\.js$/.test(id)) {
        if (!code.includes(standard)) this.error(`zod changed: $ZodType's "~standard" accessor in ${id} is not as expected`);
        // only z.encode() parses "backward"; we never encode, so its branches are dead code
        if (!code.includes(backward)) this.error(`zod changed: no "${backward}" in ${id}`);
        return {
          code: dropLazyInternals(code.replace(standard, '{});').replaceAll(backward, 'false'), id, (message) =>
            this.error(message),
          ),
          map: null,
        };
      }
      if (!/zod[\\/]v4[\\/]mini[\\/]schemas\.js$/.test(id)) return null;
      let out = code;
      for (const method of methods) {
        if (!out.includes(method)) this.error(`zod changed: ZodMiniType's methods in ${id} are not as expected`);
        out = out.replace(method, '');
      }
      return { code: out, map: null };
    },
  };
}

/**
 * Two builds from one source: `vite build` (React 19) and `vite build --mode lite` (preact: the
 * views' few React imports are aliased to src/ui/lite/, preact's core and hooks without compat).
 */
/**
 * The message keys of src/i18n (the German table, whose keys en.ts shares) that the lite build may
 * rename: each is read only as `t.key` inside the bundle, never by name from outside. Left out:
 * the keys that are also the name of some other property (`close`, `error`, `placeholder` are DOM
 * or result fields), `category1`..`4`, read as `t[\`category${id}\`]`, and the debug box's keys. Renaming the rest cuts
 * the long names out of both tables and every use.
 */
function messageKeys(): string[] {
  const source = readFileSync(new URL('./src/i18n/de.ts', import.meta.url), 'utf8');
  const keys = [...source.matchAll(/^ {2}([A-Za-z0-9]+):/gm)].map((m) => m[1]!);
  if (keys.length < 40) throw new Error('src/i18n/de.ts: message table not found; re-check messageKeys()');
  // the debug box's two keys are read by pagepulse.debug.lite.js, a file minified on its own
  const kept = ['close', 'error', 'placeholder', 'debugRegion', 'closeDebug'];
  return keys.filter((key) => !kept.includes(key) && !/^category\d$/.test(key));
}

/**
 * Property names of the bundle's own internal objects (the consent controller's actions and view
 * port, the blocker's and store's methods, the heartbeat machine's state and effects, the notify
 * store's timers, the lifetime and debug store, the banner texts): read nowhere outside the bundle
 * (not in `window.PagePulse`, an event detail, a config key, a request or the QA files), and no DOM,
 * preact or zod property has these names. The lite build renames them too.
 */
const INTERNAL = [
  'actions',
  'blocker',
  'release',
  'service',
  'effects',
  'refreshMs',
  'failures',
  'setTimer',
  'clicksStarted',
  'windowsVersion',
  'textish',
  'startedAt',
  'settingsDesc',
  'setEnabled',
  'remaining',
  'reasons',
  'disposed',
  'pageUrl',
  'allowService',
  'toggleService',
  'openSettings',
  'revokeButton',
  'mountView',
  'showDetails',
  'closeDetails',
  'categoryName',
  'openPrivacy',
  'acceptAll',
  'reloading',
];

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig(({ mode }) => {
  // `lite-debug`: the lite build's debug box as its own file (src/debug.ts), same aliases and edits
  const lite = mode === 'lite' || mode === 'lite-debug';
  const debugFile = mode === 'lite-debug';
  return {
    plugins: lite ? [zodOwnKeys(), zodMiniMethods()] : [zodOwnKeys(), zodMiniMethods(), reactDomInternals(), reactEsm()],
    define: {
      'process.env.NODE_ENV': JSON.stringify('production'),
      __PAGEPULSE_VERSION__: JSON.stringify(pkg.version),
      __PAGEPULSE_BUILD__: JSON.stringify(lite ? 'lite' : 'react'),
    },
    resolve: lite
      ? {
          alias: [
            {
              find: /^react-dom\/client$/,
              replacement: fileURLToPath(new URL('./src/ui/lite/react-dom-client.ts', import.meta.url)),
            },
            { find: /^react-dom$/, replacement: fileURLToPath(new URL('./src/ui/lite/react-dom.ts', import.meta.url)) },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react$/, replacement: fileURLToPath(new URL('./src/ui/lite/react.ts', import.meta.url)) },
          ],
        }
      : {},
    build: {
      // es2022 keeps `??=` and class fields instead of lowering them (-88 B gzip React, -66 B lite); all of
      // it runs in Safari 15 (iOS 15): what es2022 has and Safari 15 lacks, class static blocks
      // (16.4), occurs neither in our code nor in our dependencies (scripts/size-gate.mjs checks)
      target: 'es2022',
      // the lite build through terser (3 compress passes): 272 B gzip smaller than Rolldown's oxc
      // minifier on it; the React build stays on oxc, which does better there (terser: +167 B).
      // `sequences: false` and `inline: 1` only switch transforms OFF (no comma-joined statements,
      // inline only functions without arguments/variables), so they cannot change behaviour; gzip
      // finds more repeats in the plainer output: -49 B gzip lite (measured with both).
      // Property mangling of `__`/`__x` names (two underscores, at most one letter) only: those are preact's own
      // already-mangled internals (vnode `__k`/`__e`, hook state `__H`, options `__b`/`__r`...),
      // shared by preact core, hooks and jsx-runtime, all inside this one bundle; nothing in src/,
      // zod or the page reads them (`__html`, `__proto__`, `__zod_globalConfig` do not match).
      // Terser never picks a name used as a property anywhere else in the code or a DOM property,
      // so no collision: -76 B gzip lite. Likewise preact's `_sb` and zod's internal namespace
      // `_zod` with its bookkeeping fields (`traits`, `constr`, `onattach`, `deferred`): read only
      // by zod itself (its one quoted use, `Object.defineProperty(inst, "_zod", ...)`, terser
      // renames too; src/ never touches them): -27 B gzip lite
      // `unsafe_arrows` turns anonymous `function` expressions that use neither `this` nor `arguments`
      // into arrows; it breaks only one that is called with `new` or whose `.prototype` is read, and
      // the bundle has none (our constructors are classes, zod's `$constructor` and preact's
      // `Component` are named or use `this`; the rest are callbacks and inlined helpers): -25 B gzip lite
      ...(lite
        ? {
            minify: 'terser' as const,
            terserOptions: {
              ecma: 2020 as const,
              compress: { passes: 3, sequences: false, inline: 1, unsafe_arrows: true },
              mangle: {
                properties: {
                  regex: new RegExp(
                    `^(__[A-Za-z]?|_sb|_zod|traits|constr|onattach|deferred|${[...messageKeys(), ...INTERNAL].join('|')})$`,
                  ),
                },
              },
              format: { comments: false },
            },
          }
        : {}),
      // never wipe dist/: both builds write there, and concurrent test runs read it
      emptyOutDir: false,
      // maps as build artefacts next to the bundles, without a sourceMappingURL comment: the
      // bundle bytes stay what they were, and the maps are there for whoever decodes a stack
      sourcemap: 'hidden',
      reportCompressedSize: false,
      lib: {
        entry: debugFile ? 'src/debug.ts' : 'src/main.ts',
        formats: ['iife'],
        name: debugFile ? 'PagePulseDebug' : 'PagePulseBundle',
        fileName: () => (debugFile ? 'pagepulse.debug.lite.js' : lite ? 'pagepulse.lite.iife.js' : 'pagepulse.iife.js'),
      },
      rolldownOptions: {
        // terser's renderChunk takes most of the lite build: expected, not worth a warning on every build
        checks: { pluginTimings: false },
        // library mode emits one IIFE (no code splitting): the dynamic import() of each UI surface
        // is inlined, and Rolldown still evaluates the imported modules (React among them) lazily,
        // on first use, so the tracker core never waits for React
        output: {
          // V8's explicit compile hint (Chrome 136+): compile every function while the script streams
          // in, on a background thread, instead of each one on the main thread at its first call; a
          // first visit's banner path calls most of the bundle. Other engines read a comment.
          // After minification, so terser keeps it; docs/decisions.md "Start-up order" has the figures.
          postBanner: '//# allFunctionsCalledOnLoad',
        },
      },
    },
  };
});
