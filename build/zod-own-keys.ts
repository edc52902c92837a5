// What it edits: zod/v4/core/util.js, the two `for...in` loops of `members()` and `derived()`.
// Why: they walk tables with no own-property check, so a page whose old library added an ENUMERABLE
// method to Object.prototype (`Object.prototype.extend = ...`) makes the bundle throw while it
// evaluates. The plugin makes them iterate own keys, and fails the build when zod drifts: when the
// loops are gone (the patch would rot), when util.js still has a `for...in` without an own-property
// guard after patching, or when any other zod module the bundle includes has one.
import type { Plugin } from 'vite';

const UTIL = /zod[\\/]v4[\\/]core[\\/]util\.js$/;
/** Any module of the zod package (or a test fixture laid out like it). */
const ZOD = /[\\/]zod[\\/]/;

/**
 * The `for (const|let|var NAME in OBJECT)` loops of `code` that may visit inherited keys: those whose
 * body does not open with an own-property check of NAME on OBJECT (zod's `numKeys` and
 * `$constructor` open with `if (Object.prototype.hasOwnProperty.call(OBJECT, NAME))`, with or without
 * `!` and `continue`). Returns the 1-based line numbers.
 */
export function unguardedForIn(code: string): number[] {
  const lines: number[] = [];
  const loop = /\bfor\s*\(\s*(?:const|let|var)\s+([\w$]+)\s+in\s+([^)]+?)\s*\)\s*\{?\s*/g;
  for (let match = loop.exec(code); match; match = loop.exec(code)) {
    const [whole, name, object] = match;
    const rest = code.slice(match.index + whole.length);
    const guard = new RegExp(`^if \\(!?Object\\.prototype\\.hasOwnProperty\\.call\\(${escape(object!)}, ${escape(name!)}\\)\\)`);
    if (!guard.test(rest)) lines.push(code.slice(0, match.index).split('\n').length);
  }
  return lines;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function zodOwnKeys(): Plugin {
  const loops = ['for (const key in table) {', 'for (const key in computes) {'];
  return {
    name: 'pagepulse-zod-own-keys',
    transform(code, id) {
      if (!UTIL.test(id)) return null;
      let out = code;
      for (const loop of loops) {
        if (!out.includes(loop)) this.error(`zod changed: "${loop}" not found in ${id}; re-check the Object.prototype guard`);
        const object = loop.slice('for (const key in '.length, -') {'.length);
        out = out.replace(loop, `for (const key of Object.keys(${object})) {`);
      }
      const left = unguardedForIn(out);
      if (left.length)
        this.error(
          `zod changed: ${id} has a \`for...in\` loop without an own-property check (line ${left.join(', ')} before bundling); ` +
            'patch it in build/zod-own-keys.ts like members() and derived()',
        );
      return { code: out, map: null };
    },
    // every other zod module, as the bundle includes it (unused functions already dropped); output unchanged
    renderChunk(_code, chunk) {
      for (const [id, module] of Object.entries(chunk.modules)) {
        if (!ZOD.test(id) || !module.code) continue;
        const left = unguardedForIn(module.code);
        if (left.length)
          this.error(
            `zod changed: ${id} has a \`for...in\` loop without an own-property check in the bundle (rendered line ${left.join(', ')}); ` +
              'an enumerable Object.prototype method would reach it: patch it in build/zod-own-keys.ts',
          );
      }
      return null;
    },
  };
}
