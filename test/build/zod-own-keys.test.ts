// build/zod-own-keys.ts: zod built WITH the plugin survives a page that made an Object.prototype
// method enumerable, and the plugin fails the build on a `for...in` it has not made safe.
import { runInContext, createContext, type Context } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { zodMiniMethods } from '../../build/zod-mini-methods';
import { zodOwnKeys } from '../../build/zod-own-keys';
import { bundle, fixture, GLOBAL } from './bundle';

type Parse = (input: unknown) => { ok: true; data: unknown } | { ok: false; paths: string[] };

/** A fresh realm whose Object.prototype has an ENUMERABLE `extend`, as old page libraries add. */
function pageWithEnumerableExtend(): Context {
  const context = createContext({});
  runInContext(
    `Object.defineProperty(Object.prototype, 'extend', {
      value: function (other) { return Object.assign(this, other); },
      enumerable: true, writable: true, configurable: true,
    });`,
    context,
  );
  return context;
}

/** Evaluates the built entry in `context`; the parser takes a literal, evaluated in the same realm. */
function load(code: string, context: Context): (input: string) => ReturnType<Parse> {
  runInContext(code, context);
  const parse = (context[GLOBAL] as { parse: Parse }).parse;
  // the result crosses realms: compare it as JSON
  return (input) => JSON.parse(JSON.stringify(parse(runInContext(`(${input})`, context)))) as ReturnType<Parse>;
}

/** What unpatched zod throws: `members()` reads the own descriptor of every key for...in yields, and the page's inherited method has none. */
const THROWN = /Cannot read properties of undefined \(reading 'get'\)/;
const GOOD = `{ name: 'consent', kind: 'banner', size: 'abcd', tags: ['a'] }`;

describe('zod with build/zod-own-keys.ts, evaluated under an enumerable Object.prototype.extend', () => {
  it('the patched schemas evaluate and parse an object; a wrong one fails on the right fields', async () => {
    const code = await bundle(fixture('zod-entry.ts'), [zodOwnKeys(), zodMiniMethods()]);
    const context = pageWithEnumerableExtend();
    // the page's method is there and enumerable: a plain for...in sees it
    expect(runInContext(`const seen = []; for (const k in {}) seen.push(k); seen.join()`, context)).toBe('extend');
    const parse = load(code, context);
    expect(parse(GOOD)).toEqual({ ok: true, data: { name: 'consent', kind: 'banner', size: 4, tags: ['a'] } });
    expect(parse(`{ name: 7, kind: 'popup', size: 'x', tags: [1] }`)).toEqual({ ok: false, paths: ['name', 'kind', 'tags'] });
  });

  it('the same entry without zodOwnKeys (unpatched zod) throws while it evaluates: the failure the patch prevents', async () => {
    const code = await bundle(fixture('zod-entry.ts'), [zodMiniMethods()]);
    expect(() => load(code, pageWithEnumerableExtend())).toThrow(THROWN);
    // without the enumerable method the unpatched build parses: the throw comes from the page's method
    expect(load(code, createContext({}))(GOOD)).toMatchObject({ ok: true });
  });
});

describe('build/zod-own-keys.ts fails the build on a for...in it has not made safe', () => {
  it('a zod util.js with a third for...in loop (no own-property check): the build fails naming util.js', async () => {
    await expect(bundle(fixture('extra-loop/entry.js'), [zodOwnKeys()])).rejects.toThrow(
      /extra-loop[\\/]zod[\\/]v4[\\/]core[\\/]util\.js has a `for\.\.\.in` loop without an own-property check \(line 21 /,
    );
  });

  it('a zod util.js whose extra for...in checks own properties first (as zod numKeys): the build passes', async () => {
    const code = await bundle(fixture('guarded-loop/entry.js'), [zodOwnKeys()]);
    expect(code).toContain('for (const key of Object.keys(table))');
    expect(code).toContain('for (const key of Object.keys(computes))');
  });

  it('another zod module in the bundle with a for...in (no own-property check): the build fails naming it', async () => {
    await expect(bundle(fixture('other-module/entry.js'), [zodOwnKeys()])).rejects.toThrow(
      /other-module[\\/]zod[\\/]v4[\\/]core[\\/]checks\.js has a `for\.\.\.in` loop without an own-property check in the bundle/,
    );
  });
});
