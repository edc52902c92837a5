/**
 * The consent categories, in a module of their own that imports nothing: the lazily loaded consent
 * view needs the ids, and importing them from config.ts would make the bundler wrap config, its
 * sources in lazy-init functions (bytes and start-up time) to keep their order.
 */

/** Which consent category: 1 Notwendig, 2 Präferenzen, 3 Statistiken, 4 Marketing. */
export type CategoryId = 1 | 2 | 3 | 4;
/** All categories, in display order. */
export const CATEGORY_IDS: readonly CategoryId[] = [1, 2, 3, 4];
