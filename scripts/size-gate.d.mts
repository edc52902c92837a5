/** Fixed gzip budgets in bytes per built file (docs/decisions.md#size: 90 KB React, 30 KB lite). */
export declare const BUDGETS: Record<string, number>;
/** Raw, gzip -9 and brotli -11 sizes of a file in bytes. */
export declare function sizes(file: string): { raw: number; gzip: number; brotli: number };
