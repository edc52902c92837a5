/**
 * The validation core the bundle's schemas are written in: the part of zod/mini's API they use
 * (`custom`, `refine`, `check`, `pipe`, `transform`, `safeParse`), with zod's results and its
 * default message, in a few dozen lines (docs/decisions.md "Size, round 4": zod/mini cost the
 * bundle 2.2 KB gzip for what had become custom predicates only). The first failing check names
 * the issue; nothing after it runs.
 */

/** What a parse gives: the (transformed) value, or the issue. */
export type SafeParseResult<T> = { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } };

/** A check on a value: its message when it fails, else null. */
export type Check<T> = (value: T) => string | null;

/** A schema: a parse from input `I` (anything, unless it is a pipe's second step) to `T`, and further checks on its result. */
export interface Schema<T, I = unknown> {
  run(value: I): SafeParseResult<T>;
  check(...checks: Array<Check<T>>): Schema<T, I>;
}

/** What a schema (or a union of them) gives. */
export type Output<S> = S extends Schema<infer T, never> ? T : never;

/** zod's message for a failed check without one of its own. */
const INVALID = 'Invalid input';

const fail = (message: string): SafeParseResult<never> => ({ success: false, error: { issues: [{ message }] } });

function schema<T, I = unknown>(run: (value: I) => SafeParseResult<T>): Schema<T, I> {
  return {
    run,
    check: (...checks) =>
      schema((value) => {
        const result = run(value);
        if (result.success)
          for (const test of checks) {
            const message = test(result.data);
            if (message !== null) return fail(message);
          }
        return result;
      }),
  };
}

/** A value that passes `test` (zod's `abort` is how every failure behaves here). */
export const custom = <T>(test: (value: unknown) => boolean, params?: string | { abort?: boolean }): Schema<T> =>
  schema((value) => (test(value) ? { success: true, data: value as T } : fail(typeof params === 'string' ? params : INVALID)));

/** A check for `check()`: `message` (or zod's default) when `test` fails. */
export const refine =
  <T>(test: (value: T) => boolean, message = INVALID): Check<T> =>
  (value) =>
    test(value) ? null : message;

/** A schema that maps its input (a pipe's second step: its input is the first step's result). */
export const transform = <I, O>(map: (value: I) => O): Schema<O, I> =>
  schema((value: I) => ({ success: true, data: map(value) }));

/** `first`, then `second` on its result. */
export const pipe = <A, B>(first: Schema<A>, second: Schema<B, A>): Schema<B> =>
  schema((value) => {
    const result = first.run(value);
    return result.success ? second.run(result.data) : result;
  });

/** Parse without throwing. */
export const safeParse = <S extends Schema<unknown, never>>(target: S, value: unknown): SafeParseResult<Output<S>> =>
  (target as unknown as Schema<Output<S>>).run(value);
