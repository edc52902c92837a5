import * as z from 'zod/mini';

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
/** A finite number, as a custom check: zod's number schema class is not needed for one test. */
export const finite = () => z.custom<number>((v) => typeof v === 'number' && Number.isFinite(v));

/** A finite number, also written as a numeric string ("6", "2.5"). */
export const looseNumber = lazy(() =>
  z.pipe(
    z.union([finite(), z.string().check(matches(/^\s*-?\d+(\.\d+)?\s*$/))]),
    z.transform((v) => Number(v)),
  ),
);

/** A loose number that also satisfies `test` (message names the range in warnings). */
export function numberWhere(test: (n: number) => boolean, message?: string) {
  return z.pipe(
    looseNumber(),
    z.custom<number>((n) => test(n as number), message),
  );
}
