/**
 * Windows 10 reports platformVersion 1 to 10 through the client hints and Windows 11 13 or more;
 * the user-agent string says "Windows NT 10.0" for both, hence the original client's marker.
 */
const WINDOWS_11_MAJOR = 13;
/** The `windowsver` value the original stream script sends. */
export const WINDOWS_11 = 'Windows 11';

/** The part of `navigator.userAgentData` used here (Chromium-based browsers only, secure contexts). */
interface UserAgentData {
  platform?: unknown;
  getHighEntropyValues?: (hints: string[]) => Promise<{ platform?: unknown; platformVersion?: unknown } | undefined>;
}

/** Whether client hints describe Windows 11: platform `Windows` with major platformVersion 13 or more. */
export function isWindows11(platform: unknown, platformVersion: unknown): boolean {
  if (platform !== 'Windows' || typeof platformVersion !== 'string') return false;
  // parseInt stops at the first '.': the major version
  return parseInt(platformVersion, 10) >= WINDOWS_11_MAJOR;
}

/**
 * Ask the client hints once: `'Windows 11'` or null; never rejects (a page may have replaced them).
 * A platform other than Windows is known without asking (the low-entropy `platform`): the
 * high-entropy request, a round trip to the browser, is made only where its answer can matter,
 * as the original client uses it only when `platform` is `Windows`.
 */
export async function askWindowsVersion(nav: Navigator): Promise<string | null> {
  try {
    const data = (nav as Navigator & { userAgentData?: UserAgentData }).userAgentData;
    if (!data || typeof data.getHighEntropyValues !== 'function') return null;
    if (typeof data.platform === 'string' && data.platform !== 'Windows') return null;
    const values = await data.getHighEntropyValues(['platformVersion']);
    return isWindows11(values?.platform ?? data.platform, values?.platformVersion) ? WINDOWS_11 : null;
  } catch {
    return null;
  }
}
