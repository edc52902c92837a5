/** The engines the shared scenarios run in (PAGEPULSE_ENGINE). */
export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINES)[number];

/** Keys a scenario presses (the keyboard path through the consent widget). */
export type Key = 'Tab' | 'Shift+Tab' | 'Enter' | 'Escape';

/**
 * The small driver interface every shared scenario is written against, once; an adapter per
 * engine implements it (chromium: playwright-core, firefox: puppeteer-core over WebDriver BiDi,
 * webkit: classic WebDriver). What is on the wire is read from the recording server, never here.
 */
export interface EnginePage {
  /** Navigate and wait for the load event. */
  goto(url: string): Promise<void>;
  /** Reload and wait for the load event. */
  reload(): Promise<void>;
  /**
   * Run a self-contained function in the page with one JSON argument; resolves its (awaited)
   * JSON result. `undefined` comes back as null in classic WebDriver: compare with `?? null`.
   */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** A real pointer click on the first element matching `selector`, inside `host`'s open shadow root when given. */
  click(selector: string, host?: string): Promise<void>;
  /** A real key press at whatever has the focus. */
  press(key: Key): Promise<void>;
  /** The browser's cookie jar for the current page, name to value. */
  cookies(): Promise<Record<string, string>>;
  /** Leave the page (its timers stop) and free what it holds. */
  close(): Promise<void>;
}

/** How an engine is launched. */
export interface LaunchOptions {
  /**
   * An HTTP proxy (`http://127.0.0.1:port`, the vendor proxy of test/support/vendor-proxy.ts) for
   * every host but loopback, whose self-signed certificates the engine accepts unchecked.
   */
  proxy?: string;
}

/** One launched browser of an engine, shared by the tests of a file. */
export interface Engine {
  readonly name: EngineName;
  /** A fresh page: no cookies or storage left from an earlier page of `origin`. */
  newPage(origin: string): Promise<EnginePage>;
  close(): Promise<void>;
}
