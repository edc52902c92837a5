/** Package version, replaced at build time. */
declare const __PAGEPULSE_VERSION__: string;
/** Which UI runtime this build carries: 'react' or 'lite' (preact). */
declare const __PAGEPULSE_BUILD__: 'react' | 'lite';
