/**
 * A minimal classic WebDriver client (W3C WebDriver, HTTP + JSON), just the commands the engine
 * scenarios use. Small enough to read in one go; a full client library (webdriverio, ~100
 * packages) would add nothing the scenarios need.
 */
export interface WebDriverSession {
  /** Send one command; resolves its `value`, rejects with the driver's error and message. */
  command<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object): Promise<T>;
  /** End the session (the driver closes the browser). */
  quit(): Promise<void>;
}

/** The key a W3C element reference is stored under. */
export const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

/**
 * The longest one command may take. A driver that never answers (a navigation it waits on forever)
 * then fails that command with its name, well inside the test's own timeout, instead of hanging the
 * hook that sent it until vitest gives up on the whole hook.
 */
export const COMMAND_TIMEOUT_MS = 30_000;

async function call<T>(url: string, method: string, body?: object): Promise<T> {
  const path = new URL(url).pathname;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers: body ? { 'content-type': 'application/json' } : undefined,
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    throw new Error(`WebDriver ${method} ${path}: no answer in ${COMMAND_TIMEOUT_MS / 1000} s`);
  }
  const parsed = (text ? JSON.parse(text) : {}) as { value?: T & { error?: string; message?: string } };
  if (!response.ok)
    throw new Error(`WebDriver ${method} ${path}: ${parsed.value?.error ?? response.status}: ${parsed.value?.message ?? text}`);
  return parsed.value as T;
}

/**
 * Open a session on a running driver at `base` (http://127.0.0.1:port). Its commands go out one
 * after another, as a W3C session processes them: callers may fire several at once. In WebKit every
 * page is the one session, and a CI run once saw the hook that closed a test's two pages at once
 * (two navigations to about:blank sent together) get no answer for its whole 60 s.
 */
export async function newSession(base: string, capabilities: object): Promise<WebDriverSession> {
  const { sessionId } = await call<{ sessionId: string }>(`${base}/session`, 'POST', {
    capabilities: { alwaysMatch: capabilities },
  });
  const root = `${base}/session/${sessionId}`;
  let last: Promise<unknown> = Promise.resolve();
  const serial = <T>(send: () => Promise<T>): Promise<T> => {
    const next = last.then(send, send);
    last = next.catch(() => undefined);
    return next;
  };
  return {
    command: (method, path, body) => serial(() => call(`${root}${path}`, method, body ?? (method === 'POST' ? {} : undefined))),
    quit: () => serial(async () => void (await call(root, 'DELETE'))),
  };
}

/** Wait until the driver at `base` answers its status. */
export async function waitForDriver(base: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await call(`${base}/status`, 'GET');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`WebDriver at ${base} did not start: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
