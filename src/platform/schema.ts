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

/** A finite number, also written as a numeric string ("6", "2.5"). */
export const looseNumber = lazy(() =>
  z.pipe(
    z.union([z.number().check(z.refine(Number.isFinite)), z.string().check(z.regex(/^\s*-?\d+(\.\d+)?\s*$/))]),
    z.transform((v) => Number(v)),
  ),
);

/** A loose number that also satisfies `test` (message names the range in warnings). */
export function numberWhere(test: (n: number) => boolean, message?: string) {
  return z.pipe(looseNumber(), z.number().check(z.refine(test, message)));
}
