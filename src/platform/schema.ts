import * as z from './schema-core';

/**
 * zod/mini helpers shared by the config fields and the server-answer schemas. Schemas are built
 * on first use (`lazy`): zod's constructors are costly enough to show in the bundle's evaluation
 * time, and a page usually needs only a few of them.
 */

/** A value built once, on first call. */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/**
 * Length and pattern checks as plain refinements: zod's own `regex`/`minLength`/`maxLength` bring
 * their check classes, string-format and size-cap machinery for what one comparison does here
 * (zod/mini has no locale loaded, so the message is "Invalid input" either way).
 */
export const matches = (pattern: RegExp) => z.refine<string>((v) => pattern.test(v));
/** At most `n` characters or items. */
export const maxLength = (n: number) => z.refine<string | unknown[]>((v) => v.length <= n);
/**
 * A string, as a custom check that stops the checks after it when it fails: zod's string schema
 * class (coercion, formats) is not needed for a `typeof`. A failure reads "Invalid input", as
 * `z.string()`'s did.
 */
export const string = () => z.custom<string>((v) => typeof v === 'string', { abort: true });

/** A finite number. */
export const isFinite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A finite number or a numeric string ("6", "2.5"): what `looseNumber` accepts. */
export const isLooseNumber = (v: unknown): boolean => isFinite(v) || (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v));

/**
 * Alternatives are one custom check and one transform, not `z.union` of `z.literal`s: the union
 * and literal schema classes (about 400 B gzip) and the construction of a schema per alternative
 * at start-up (each zod schema costs its constructor's work on first use) are not needed for a
 * test that a line of code does. A failure reads "Invalid input", as the union's did.
 */
export const oneOf = <T, R>(test: (v: unknown) => boolean, to: (v: T) => R) =>
  z.pipe(
    z.custom<T>(test),
    z.transform((v: T) => to(v)),
  );

/** A finite number, also written as a numeric string ("6", "2.5"). */
export const looseNumber = oneOf(isLooseNumber, Number);

/** A loose number that also satisfies `test` (message names the range in warnings). */
export function numberWhere(test: (n: number) => boolean, message?: string) {
  return z.pipe(
    looseNumber,
    z.custom<number>((n) => test(n as number), message),
  );
}
