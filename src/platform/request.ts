import { encodeForm, type FormValue } from './encode';
import { isSessionToken } from './validate';

/** Default time a request may take before it counts as a timeout (Joomla's XHR has none; we do). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Answers longer than this are refused unparsed: no endpoint of the protocol sends this much. */
export const MAX_ANSWER_CHARS = 256 * 1024;

/** The failure classes of Joomla.request/ajaxErrorsMessages, plus our size guard under `parse`. */
export type RequestErrorKind = 'parse' | 'nocontent' | 'timeout' | 'abort' | 'http';

/** A classified failure: `detail` is the raw reason (error text, server message or status text). */
export interface RequestError {
  kind: RequestErrorKind;
  /** HTTP status, 0 when no answer came (the request failed before any header arrived). */
  status: number;
  /** The server's JSON `message`, the status text, or the network error's text. */
  detail: string;
}

/** What a request resolves to; it never rejects. */
export type RequestResult<T> = { ok: true; status: number; data: T } | { ok: false; error: RequestError };

/** One request, Joomla.request style: GET unless `data` is given. */
export interface RequestOptions {
  /** Absolute or page-relative address. */
  url: string;
  /** Defaults to POST when `data` is given, else GET. */
  method?: 'GET' | 'POST';
  /** Form fields (encoded like jQuery's $.param) or an already encoded body. */
  data?: ReadonlyArray<readonly [string, FormValue]> | string;
  /** Extra headers; the form content type is added for POSTs unless given. */
  headers?: Record<string, string>;
  /** Milliseconds before the request is aborted as a timeout. */
  timeout?: number;
  /** Let the request outlive the page (clicks on links, consent logs before a reload). */
  keepalive?: boolean;
  /** 'json' parses the answer; 'text' returns it as is. */
  responseType?: 'json' | 'text';
  /** Abort from outside (destroy()). */
  signal?: AbortSignal;
}

/** The request helper every call of the bundle goes through. */
export type Requester = <T = unknown>(options: RequestOptions) => Promise<RequestResult<T>>;

/** What the helper needs from the page; injected for tests. */
export interface RequesterDeps {
  fetch: typeof fetch;
  /** The page address, for same-origin checks and relative URLs. */
  pageUrl: () => string;
  /** The page's anti-forgery token (Joomla option `csrf.token`), if any. */
  csrfToken: () => string | null | undefined;
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
  /** Default timeout in ms. */
  timeoutMs?: number;
}

/** Build the request helper. */
export function createRequester(deps: RequesterDeps): Requester {
  return async function request<T>(options: RequestOptions): Promise<RequestResult<T>> {
    const method = options.method ?? (options.data === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', ...options.headers };
    let body: string | undefined;
    let url: URL;
    try {
      url = new URL(options.url, deps.pageUrl());
    } catch {
      return fail('abort', 0, `invalid address: ${String(options.url).slice(0, 200)}`);
    }
    if (method === 'POST') {
      body = typeof options.data === 'string' ? options.data : encodeForm(options.data ?? []);
      if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/x-www-form-urlencoded; charset=UTF-8';
      const token = deps.csrfToken();
      if (isSessionToken(token) && url.origin === new URL(deps.pageUrl()).origin) headers['X-CSRF-Token'] = token;
    }

    const controller = new AbortController();
    let timedOut = false;
    const timer = deps.setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      options.timeout ?? deps.timeoutMs ?? REQUEST_TIMEOUT_MS,
    );
    const outer = options.signal;
    const onOuterAbort = (): void => controller.abort();
    outer?.addEventListener('abort', onOuterAbort);
    // set once the headers came: a body that then fails to arrive still was an answer
    let status = 0;

    try {
      const response = await deps.fetch(url.href, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        cache: 'no-store',
        keepalive: options.keepalive === true,
        signal: controller.signal,
      });
      status = response.status;
      const text = await response.text();
      if (!response.ok) return fail('http', response.status, serverMessage(text) ?? response.statusText ?? '');
      if (options.responseType === 'text') return { ok: true, status: response.status, data: text as T };
      if (response.status === 204 || text.trim() === '') return fail('nocontent', response.status, '');
      if (text.length > MAX_ANSWER_CHARS)
        return fail('parse', response.status, `answer of ${text.length} characters is too large`);
      try {
        return { ok: true, status: response.status, data: JSON.parse(text) as T };
      } catch {
        return fail('parse', response.status, text.slice(0, 200));
      }
    } catch (error) {
      if (timedOut) return fail('timeout', status, '');
      return fail('abort', status, errorText(error));
    } finally {
      deps.clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  };
}

function fail(kind: RequestErrorKind, status: number, detail: string): { ok: false; error: RequestError } {
  return { ok: false, error: { kind, status, detail } };
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** The `message` of a JSON error answer (Joomla's JsonResponse shape), if there is one. */
function serverMessage(text: string): string | null {
  if (text.length > MAX_ANSWER_CHARS) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
      return (parsed as { message: string }).message.slice(0, 500);
    }
  } catch {
    // not JSON: the caller falls back to the status text
  }
  return null;
}

/** A short, printable text for any thrown value. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** A requester that also reports each failure (as an alert, a debug message...) and still returns it. */
export function reporting(request: Requester, report: (error: RequestError, options: RequestOptions) => void): Requester {
  return async <T>(options: RequestOptions): Promise<RequestResult<T>> => {
    const result = await request<T>(options);
    if (!result.ok) report(result.error, options);
    return result;
  };
}
