import type { ESLint } from 'eslint';

/** The project's ESLint plugin: `pagepulse/layers` (import rules) and `pagepulse/no-top-level-page`. */
export declare const pagepulse: ESLint.Plugin;
