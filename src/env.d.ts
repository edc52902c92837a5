/** Package version, replaced at build time. */
declare const __PAGEPULSE_VERSION__: string;
/** Which UI runtime this build carries: 'react' or 'lite' (preact/compat). */
declare const __PAGEPULSE_BUILD__: 'react' | 'lite' | 'eager';
/** Benchmark-only build: evaluate every UI surface before the tracker starts (the "before" figure). */
declare const __PAGEPULSE_EAGER_UI__: boolean;
