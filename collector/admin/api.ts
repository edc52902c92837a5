/** Thrown for an answer other than 2xx; `status` 401 means the session ended. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where a 401 sends the admin: the sign-in page (the session expired or was ended elsewhere). */
const SIGN_IN = '/admin/login';

async function answer<T>(res: Response): Promise<T> {
  if (res.status === 401) {
    window.location.assign(SIGN_IN);
    throw new ApiError(401, 'signed out');
  }
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  if (!res.ok) throw new ApiError(res.status, body?.error ?? `HTTP ${res.status}`);
  return body as T;
}

/** GET a JSON read of /admin/api. */
export async function getJson<T>(path: string, params: Record<string, string | string[]> = {}): Promise<T> {
  const query = new URLSearchParams(
    Object.entries(params)
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((one) => [k, one]) : [[k, v]]))
      .filter(([, v]) => v !== ''),
  ).toString();
  return answer<T>(await fetch(`/admin/api/${path}${query ? `?${query}` : ''}`, { credentials: 'same-origin' }));
}

/** POST form fields to /admin/api (the browser adds our Origin, which the collector checks). */
export async function postForm<T>(path: string, fields: Record<string, string>): Promise<T> {
  return answer<T>(
    await fetch(`/admin/api/${path}`, { method: 'POST', credentials: 'same-origin', body: new URLSearchParams(fields) }),
  );
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
