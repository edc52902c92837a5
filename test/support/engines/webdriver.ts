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

async function call<T>(url: string, method: string, body?: object): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const parsed = (text ? JSON.parse(text) : {}) as { value?: T & { error?: string; message?: string } };
  if (!response.ok)
    throw new Error(
      `WebDriver ${method} ${new URL(url).pathname}: ${parsed.value?.error ?? response.status}: ${parsed.value?.message ?? text}`,
    );
  return parsed.value as T;
}

/** Open a session on a running driver at `base` (http://127.0.0.1:port). */
export async function newSession(base: string, capabilities: object): Promise<WebDriverSession> {
  const { sessionId } = await call<{ sessionId: string }>(`${base}/session`, 'POST', {
    capabilities: { alwaysMatch: capabilities },
  });
  const root = `${base}/session/${sessionId}`;
  return {
    command: (method, path, body) => call(`${root}${path}`, method, body ?? (method === 'POST' ? {} : undefined)),
    quit: async () => void (await call(root, 'DELETE')),
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
