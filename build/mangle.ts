// What it holds: the lite build's terser property-mangling lists (vite.config.ts builds
// `mangle.properties` from them with propertyMangling). Why: renaming properties that only the bundle
// reads cuts their long names out of the output. Every name here must be read nowhere outside the
// bundle (not in `window.PagePulse`, an event detail, a config key, a request or the QA files) and
// never on a DOM object or one of preact's (terser renames it everywhere in the file, a DOM
// property's name too); a wrong entry breaks the lite bundle at run time, which the browser suites
// (run against dist/pagepulse.lite.iife.js) catch.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { minify } from 'terser';
import type { Plugin } from 'vite';

/**
 * The message keys of src/i18n (the German table, whose keys en.ts shares) that the lite build may
 * rename: each is read only as `t.key` inside the bundle, never by name from outside. Left out:
 * the keys that are also the name of some other property (`close`, `error`, `placeholder` are DOM
 * or result fields) and `category1`..`4`, read as `t[\`category${id}\`]` (the debug box's texts are
 * src/i18n/debug.ts, not in these tables). Renaming the rest cuts
 * the long names out of both tables and every use.
 */
export function messageKeys(): string[] {
  const source = readFileSync(new URL('../src/i18n/de.ts', import.meta.url), 'utf8');
  const keys = [...source.matchAll(/^ {2}([A-Za-z0-9]+):/gm)].map((m) => m[1]!);
  if (keys.length < 40) throw new Error('src/i18n/de.ts: message table not found; re-check messageKeys()');
  const kept = ['close', 'error', 'placeholder'];
  return keys.filter((key) => !kept.includes(key) && !/^category\d$/.test(key));
}

/**
 * Property names of the bundle's own internal objects (the consent controller's actions and view
 * port, the blocker's and store's methods, the heartbeat machine's state and effects, the notify
 * store's timers, the lifetime and debug store, the banner texts): read nowhere outside the bundle
 * (not in `window.PagePulse`, an event detail, a config key, a request or the QA files), and no DOM,
 * preact property has these names. The lite build renames them too. Nor may a name cross into the
 * QA files, which are built apart and renamed differently (or not at all): the heatmap overlay is
 * handed the context and calls `lifetime.add` and `lifetime.listen`, the lite debug box the debug
 * store's `get`, `subscribe` and `close` (heatmap-overlay.test.ts failed when `lifetime` was listed).
 */
export const INTERNAL = [
  'actions',
  'blocker',
  'release',
  'service',
  'effects',
  'refreshMs',
  'failures',
  'setTimer',
  'clickStart',
  'phase',
  'problems',
  'windowsVersion',
  'moduleAvailable',
  'externalReferrer',
  'initialized',
  'calls',
  'retryInMs',
  'malformed',
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
  'refused',
  'reread',
  'unlocks',
  'outdated',
  'watch',
  'server',
  'element',
  'success',
  'draft',
  'binds',
  'errors',
  'answer',
  'dispose',
  'allows',
  'choose',
  'decline',
  'hold',
  'held',
  'perform',
  'isOwnUi',
  'nodes',
  'texts',
  'mountConsent',
  'mountNotify',
];

/**
 * preact's property names the lite build renames besides the lists (vite.config.ts): its `__x`
 * internals (two underscores, at most one letter) and `_sb`; its options (`vnode`, `diffed`,
 * `event`, `unmount`, `debounceRendering`, `requestAnimationFrame`; `unmount` is also the method of
 * the lite createRoot's root); its vnodes' and components' `props`, `setState`, `defaultProps` and
 * the development fields `__source`/`__self`; refs' `current`; and the lifecycle methods preact's
 * hooks still set on a function component (`shouldComponentUpdate`, `componentWillUpdate`,
 * `componentWillUnmount`; the rest went with the class components, build/preact-edits.ts). preact's
 * core, hooks and jsx-runtime and our views are in the one file and the page reaches none of them;
 * the lite debug box has its own preact, renamed in its own file. -75 B gzip lite (2026-11-29).
 */
export const PREACT_NAMES = [
  '__[A-Za-z]?',
  '_sb',
  'vnode',
  'diffed',
  'debounceRendering',
  'props',
  'setState',
  'defaultProps',
  '__source',
  '__self',
  'current',
  'shouldComponentUpdate',
  'componentWillUpdate',
  'componentWillUnmount',
  'event',
  'unmount',
  'requestAnimationFrame',
];

/**
 * The properties both builds rename: messageKeys and INTERNAL, and `extra` (the lite build adds
 * preact's own internals), as terser's `mangle.properties.regex`.
 */
export function mangledProperties(extra: readonly string[] = []): RegExp {
  return new RegExp(`^(${[...extra, ...messageKeys(), ...INTERNAL].join('|')})$`);
}

/** The built-ins whose own and prototype property names terser reserves besides its DOM list (its find_builtins). */
const BUILTINS = `Object Array Function Number String Boolean Error Math Date RegExp Symbol ArrayBuffer DataView Float32Array
  Float64Array Int8Array Int16Array Int32Array Uint8Array Uint8ClampedArray Uint16Array Uint32Array JSON Map Promise Proxy
  Reflect Set WeakMap WeakSet EvalError RangeError ReferenceError SyntaxError TypeError URIError`.split(/\s+/);

/**
 * terser's `mangle.properties` for the lists: `regex` from mangledProperties, and `builtins: true`
 * with the reserved names given here. Left to itself terser never renames a name of its DOM and
 * built-in list (`tools/domprops.js`, 9,000 names of every browser), whatever the regex says: the
 * listed names that some browser also has as a property (`effects`, `element`, `release`, `service`,
 * `actions`, `watch`, `reasons`, `disposed`, `setEnabled`) kept their long form in both builds.
 * Reserved here is that same list without the listed names, so the short names terser picks are
 * still never a DOM or built-in property. Every listed name is read on the bundle's own objects only
 * (INTERNAL says so), React's too (`element` of its update payloads is renamed the same everywhere).
 */
export function propertyMangling(extra: readonly string[] = []): { regex: RegExp; builtins: true; reserved: string[] } {
  const regex = mangledProperties(extra);
  // terser's DOM list (the package exports no path to it)
  const file = new URL('../tools/domprops.js', pathToFileURL(createRequire(import.meta.url).resolve('terser')));
  const domprops = [...readFileSync(file, 'utf8').matchAll(/^\s*"([^"]+)",?$/gm)].map((m) => m[1]!);
  if (domprops.length < 5000)
    throw new Error(`${fileURLToPath(file)}: terser's DOM property list not found; re-check propertyMangling()`);
  const builtins = BUILTINS.flatMap((name) => {
    const ctor = (globalThis as unknown as Record<string, { prototype?: object }>)[name]!;
    return [...Object.getOwnPropertyNames(ctor), ...Object.getOwnPropertyNames(ctor.prototype ?? {})];
  });
  const reserved = new Set([...domprops, ...builtins, 'null', 'true', 'false', 'NaN', 'Infinity', '-Infinity', 'undefined']);
  return { regex, builtins: true, reserved: [...reserved].filter((name) => !regex.test(name)) };
}

/**
 * The React build's property mangling: the same lists as the lite build's (messageKeys and
 * INTERNAL), applied by terser to the bundle that Rolldown's own minifier made (which renames no
 * properties; terser as the React build's minifier was 167 B gzip larger). Nothing else is changed:
 * no compression, local names renamed again (neutral, measured). terser leaves DOM and built-in
 * property names alone (its `domprops` list), so react-dom's reads of the DOM are not touched; a
 * name of the lists that react-dom also uses on its own objects is renamed there too, the same way
 * everywhere in the one file. -414 B gzip on the React build (2026-11-28). The hidden source map is
 * carried through (terser maps to the input's map).
 */
export function reactPropertyMangling(): Plugin {
  const properties = propertyMangling();
  return {
    name: 'pagepulse:react-property-mangling',
    apply: 'build',
    async generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        const map = bundle[`${file.fileName}.map`];
        const out = await minify(file.code, {
          ecma: 2020,
          compress: false,
          mangle: { properties },
          // the compile hint (vite.config.ts postBanner) stays the first line
          format: { comments: /allFunctionsCalledOnLoad/ },
          sourceMap: map?.type === 'asset' ? { content: String(map.source) } : false,
        });
        if (!out.code) throw new Error(`${file.fileName}: terser returned no code`);
        file.code = out.code;
        if (map?.type === 'asset' && typeof out.map === 'string') map.source = out.map;
      }
    },
  };
}
