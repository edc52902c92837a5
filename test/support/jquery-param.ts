import { createRequire } from 'node:module';

/**
 * An encoder independent of `src/`: jQuery 1.12.4's own `$.param` (the version Joomla 3 ships and
 * the analytics component's client was written against), run in node. node_modules/jquery/dist/
 * jquery.js is loaded once into a jsdom window through its CommonJS factory (no eval); the tests
 * take their expected bytes from it instead of re-typing the product's
 * `encodeURIComponent(...).replace(/%20/g, '+')`.
 */

/** One form field, as the collector harness and the expected bodies give them. */
export type FormValue = string | number | boolean | null | undefined;

interface JQueryStatic {
  param(fields: Array<{ name: string; value: FormValue }>): string;
  fn: { jquery: string };
}

let jquery: JQueryStatic | undefined;

function load(): JQueryStatic {
  if (jquery) return jquery;
  const require = createRequire(import.meta.url);
  // jsdom ships no types; only its window is used
  const { JSDOM } = require('jsdom') as { JSDOM: new (html: string) => { window: unknown } };
  const factory = require('jquery/dist/jquery.js') as (window: unknown) => JQueryStatic;
  const $ = factory(new JSDOM('<!doctype html>').window);
  if ($.fn.jquery !== '1.12.4') throw new Error(`jquery-param: expected jQuery 1.12.4, found ${$.fn.jquery}`);
  jquery = $;
  return $;
}

/** Fields in order, form-encoded by jQuery 1.12.4's `$.param` (null and undefined: empty value). */
export function param(fields: ReadonlyArray<readonly [string, FormValue]>): string {
  return load().param(fields.map(([name, value]) => ({ name, value })));
}

/** The collector harness's name for the same encoder. */
export const encodeForm = param;

/** One value as `$.param` encodes it (a field's value part). */
export function enc(value: string): string {
  return param([['', value]]).slice(1);
}

/** The jQuery version the helper loaded (the tests check it is 1.12.4). */
export const jqueryVersion = (): string => load().fn.jquery;
