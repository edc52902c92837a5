import type { Config } from './config';
import { resolveConfig } from './resolve';
import { readSources, type ConfigEnv } from './sources';

export { CATEGORY_IDS, defaultConfig, type CategoryConfig, type CategoryId, type Config, type Service } from './config';
export type { ConfigEnv } from './sources';

/**
 * Read and validate every source into one Config; never throws. Each bad key warns once, also
 * over a second reading with the same `seen` (main.ts reads again once the DOM is parsed).
 */
export function readConfig(env: ConfigEnv, seen = new Set<string>()): Config {
  const warnOnce = (message: string): void => {
    if (seen.has(message)) return;
    seen.add(message);
    env.warn(message);
  };
  return resolveConfig(readSources({ ...env, warn: warnOnce }), warnOnce);
}
