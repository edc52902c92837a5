import { isErrorCode, type ErrorAnswer, type ErrorCode } from '../shared/error-codes';

/**
 * Thrown for an answer other than 2xx, and for no answer at all (`status` 0: the network, the
 * collector down). `message` is the collector's English text; the app shows its own text for
 * `code` (errors.ts), else for the status. `status` 401 means the session ended.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's machine code (collector/shared/error-codes.ts); null when it named none this app knows. */
    readonly code: ErrorCode | null = null,
    /** Seconds the answer's Retry-After asks to wait (429, 503); null without one. */
    readonly retryAfter: number | null = null,
    /** The form field the answer names as wrong (`field`: a setting); null when it names none. */
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

/** Where a 401 sends the admin: the sign-in page (the session expired or was ended elsewhere). */
const SIGN_IN = '/admin/login';

/** A Retry-After header in seconds: delay-seconds, or an HTTP date from `now`; null without a usable one. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A 2xx answer as it is; any other as an ApiError (a 401 also sends the admin to the sign-in page). */
export async function accepted(res: Response): Promise<Response> {
  if (res.status === 401) {
    window.location.assign(SIGN_IN);
    throw new ApiError(401, 'signed out', 'signed_out');
  }
  if (res.ok) return res;
  // a proxy's error page is no JSON: the status says what happened
  const body = (await res.json().catch(() => null)) as { [key in keyof ErrorAnswer]?: unknown } | null;
  throw new ApiError(
    res.status,
    typeof body?.error === 'string' ? body.error : `HTTP ${res.status}`,
    isErrorCode(body?.code) ? body.code : null,
    retryAfterSeconds(res.headers.get('retry-after')),
    typeof body?.field === 'string' ? body.field : null,
  );
}

async function answer<T>(res: Response): Promise<T> {
  return (await (await accepted(res)).json().catch(() => null)) as T;
}

/** fetch, with no answer at all (offline, the collector down, a reset) as an ApiError of status 0. */
export async function request(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { credentials: 'same-origin', ...init });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  }
}

/** GET a JSON read of /admin/api. */
export async function getJson<T>(path: string, params: Record<string, string | string[]> = {}): Promise<T> {
  const query = new URLSearchParams(
    Object.entries(params)
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((one) => [k, one]) : [[k, v]]))
      .filter(([, v]) => v !== ''),
  ).toString();
  return answer<T>(await request(`/admin/api/${path}${query ? `?${query}` : ''}`, {}));
}

/** POST form fields to /admin/api (the browser adds our Origin, which the collector checks). */
export async function postForm<T>(path: string, fields: Record<string, string>): Promise<T> {
  return answer<T>(await request(`/admin/api/${path}`, { method: 'POST', body: new URLSearchParams(fields) }));
}

/** The JSON shapes of /admin/api: one file for the server's routes and this app (collector/shared/admin-api.ts). */
export type {
  AdminSettings,
  ApiToken,
  ApiTokens,
  NewApiToken,
  ClickPages,
  Compared,
  ConsentEntry,
  ConsentLog,
  ConsentStats,
  Erased,
  FilterName,
  Filters,
  Online,
  PeriodInfo,
  PeriodName,
  RetentionDays,
  Row,
  SavedSettings,
  Shares,
  Traffic,
} from '../shared/admin-api';
