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
/** The period an answer is for (collector/server/admin/period.ts), as the picker shows it. */
export interface PeriodInfo {
  name: PeriodName;
  timeZone: string;
  unit: 'hour' | 'day' | 'month';
  days: { current: [string, string]; previous: [string, string] };
}
/** The picker's choices; `custom` with `from` and `to` (days in the site's time zone). */
export type PeriodName = 'today' | '7d' | '30d' | '12m' | 'custom';
/** One figure in the chosen period and in the one before. */
export interface Compared {
  current: number;
  previous: number;
}
/** One row of a breakdown (pages, referrers, devices...). */
export interface Row extends Compared {
  label: string;
}
export interface Traffic {
  period: PeriodInfo;
  summary: Record<'views' | 'visitors' | 'visits' | 'bounceRate' | 'timeOnPage', Compared>;
  series: Array<{ label: string; views: number; visitors: number; previousLabel: string | null; previousViews: number }>;
  pages: Array<Row & { timeOnPage: number }>;
  entryPages: Row[];
  exitPages: Row[];
  referrers: Row[];
  utmSource: Row[];
  utmMedium: Row[];
  utmCampaign: Row[];
  utmTerm: Row[];
  utmContent: Row[];
  devices: Row[];
  browsers: Row[];
  screens: Row[];
}
export interface ClickPages {
  period: PeriodInfo;
  pages: Array<{ page: string; total: Compared; selectors: Array<{ selector: string } & Compared> }>;
}
/** Deciding visitors and the share (0..1) allowing each category. */
export interface Shares {
  visitors: number;
  shares: Record<'1' | '2' | '3' | '4', number>;
}
export interface ConsentStats {
  period: PeriodInfo;
  buckets: Array<Shares & { day: string }>;
  current: Shares;
  previous: Shares;
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
