/** What the collector tells the bundle in every `configparams` (wire names, protocol section 3). */
export interface Settings {
  /** Seconds between heartbeats. */
  daemonrefresh: number;
  /** 1 turns the bundle's debug box on. */
  enable_debug: 0 | 1;
  /** Minutes after which the bundle stops its heartbeat; 0 = never. */
  daemontimeout: number;
  /** Clicks on elements wider than this (px) are not recorded. */
  heatmap_max_valid_width: number;
  /** Clicks on elements higher than this (px) are not recorded. */
  heatmap_max_valid_height: number;
}

/** The analytics component's own defaults (a 2 s heartbeat, no cap, 350 x 50 click targets). */
export const DEFAULT_SETTINGS: Settings = {
  daemonrefresh: 2,
  enable_debug: 0,
  daemontimeout: 0,
  heatmap_max_valid_width: 350,
  heatmap_max_valid_height: 50,
};

/** A session counts as online for this many heartbeat intervals after its last beat (one lost beat is no exit)... */
export const PRESENCE_INTERVALS = 3;
/** ...but never less than this: a short refresh must not make visitors flicker in and out. */
export const PRESENCE_MIN_MS = 10_000;

/** How long a session counts as online after its last heartbeat, for these settings. */
export function presenceWindowMs(settings: Settings): number {
  return Math.max(PRESENCE_INTERVALS * settings.daemonrefresh * 1000, PRESENCE_MIN_MS);
}
