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
export async function getJson<T>(path: string, params: Record<string, string> = {}): Promise<T> {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== '')).toString();
  return answer<T>(await fetch(`/admin/api/${path}${query ? `?${query}` : ''}`, { credentials: 'same-origin' }));
}

/** POST form fields to /admin/api (the browser adds our Origin, which the collector checks). */
export async function postForm<T>(path: string, fields: Record<string, string>): Promise<T> {
  return answer<T>(
    await fetch(`/admin/api/${path}`, { method: 'POST', credentials: 'same-origin', body: new URLSearchParams(fields) }),
  );
}

/** The JSON shapes of /admin/api (collector/server/admin/routes.ts). */
export interface Online {
  online: number;
  pages: Array<{ page: string; visitors: number }>;
  at: string;
}
export interface Traffic {
  days: Array<{ day: string; views: number; visitors: number }>;
  pages: Array<{ page: string; views: number; visitors: number }>;
}
export interface ClickPages {
  pages: Array<{ page: string; total: number; selectors: Array<{ selector: string; count: number }> }>;
}
export interface ConsentStats {
  days: Array<{ day: string; visitors: number; shares: Record<'1' | '2' | '3' | '4', number> }>;
}
export interface ConsentEntry {
  kind: 'generic' | 'category' | 'form';
  id: number;
  at: string;
  visitor: string;
  category: number | null;
  granted: boolean | null;
  userAgent: string;
  url: string | null;
  formId: string | null;
  formName: string | null;
  fields: Record<string, string> | null;
  deletedAt: string | null;
}
