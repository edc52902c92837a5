/**
 * The one place where the bundle's own failures are caught: the host page must never see an
 * exception or an unhandled rejection from us. Each helper hands what it caught to `onError`
 * (the logger, in the running bundle) instead of dropping it.
 */

/** Where a caught failure goes. */
export type OnError = (error: unknown) => void;

/** Run `fn`; when it throws, report and return `fallback`. */
export function attempt<R>(fn: () => R, onError: OnError, fallback: R): R {
  try {
    return fn();
  } catch (error) {
    onError(error);
    return fallback;
  }
}

/** Run `fn` for its effect; report instead of throwing. */
export function safely(fn: () => void, onError: OnError): void {
  attempt(fn, onError, undefined);
}

/** End a promise chain: a rejection (or a throw in the last `.then`) is reported, never left unhandled. */
export function settle(promise: PromiseLike<unknown>, onError: OnError): void {
  Promise.resolve(promise).then(undefined, onError);
}
