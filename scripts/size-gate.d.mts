/** Enforced gzip budgets in bytes per built file. */
export declare const BUDGETS: Record<string, number>;
/** The budgets issue 7 asked for. */
export declare const TARGETS: Record<string, number>;
/** Raw, gzip -9 and brotli -11 sizes of a file in bytes. */
export declare function sizes(file: string): { raw: number; gzip: number; brotli: number };
