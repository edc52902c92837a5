import type { Config } from './config';
import { resolveConfig } from './resolve';
import { readSources, type ConfigEnv } from './sources';

export { CATEGORY_IDS, defaultConfig, type CategoryConfig, type CategoryId, type Config, type Service } from './config';
export type { ConfigEnv } from './sources';

/** Read and validate every source into one Config; never throws. Each bad key warns once. */
export function readConfig(env: ConfigEnv): Config {
  const seen = new Set<string>();
  const warnOnce = (message: string): void => {
    if (seen.has(message)) return;
    seen.add(message);
    env.warn(message);
  };
  return resolveConfig(readSources({ ...env, warn: warnOnce }), warnOnce);
}
