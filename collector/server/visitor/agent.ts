import Bowser from 'bowser';
import type { AgentInfo, DeviceClass } from '../store';

/**
 * Device class, browser and operating system from a user agent, through bowser (MIT, maintained, no native code):
 * user-agent strings change every few months, and a parser that others keep up to date beats
 * hand-written patterns. ua-parser-js 2 would do too but is AGPL.
 */

const DEVICES: readonly string[] = ['desktop', 'mobile', 'tablet', 'tv', 'bot'];
/** Longest user agent parsed: real ones stay under 500 characters; a longer one is not worth the regexes. */
const MAX_AGENT_CHARS = 1024;

/** Parse once per page view; bowser throws on an empty string, which is `unknown` here. */
export function describeAgent(userAgent: string): AgentInfo {
  if (!userAgent.trim() || userAgent.length > MAX_AGENT_CHARS) return { device: 'unknown', browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type ?? '';
  return {
    device: DEVICES.includes(type) ? (type as DeviceClass) : 'unknown',
    browser: parsed.browser.name || null,
    // bowser's names: Windows, macOS, iOS, Android, Linux, Chrome OS, HarmonyOS, ...
    os: parsed.os.name || null,
  };
}
