import { useCallback, useEffect, useState } from 'react';

/** What a view knows about its data: still loading, loaded, or failed (said in the admin's language by errors.ts). */
export type Loaded<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'error'; error: unknown };

/**
 * Load `fetcher` now, again when `deps` change, and every `everyMs` if given; `reload` forces it.
 * The third value, `busy`, is true while the shown data is not yet that of the current `deps` (a
 * new period or filter loading: the old figures stay until the new ones arrive) or of a forced
 * reload; the timed refresh does not count.
 */
export function useData<T>(fetcher: () => Promise<T>, deps: readonly unknown[], everyMs = 0): [Loaded<T>, () => void, boolean] {
  const [loaded, setLoaded] = useState<{ value: Loaded<T>; for: readonly unknown[] | null }>({
    value: { state: 'loading' },
    for: null,
  });
  const [tick, setTick] = useState(0);
  const [timed, setTimed] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  const key = [...deps, tick];
  useEffect(() => {
    let live = true;
    fetcher().then(
      (data) => live && setLoaded({ value: { state: 'ok', data }, for: key }),
      (error: unknown) => live && setLoaded({ value: { state: 'error', error }, for: key }),
    );
    return () => {
      live = false;
    };
    // the caller's deps stand for `fetcher` (a new closure each render), plus the reload ticks
  }, [...key, timed]);
  useEffect(() => {
    if (!everyMs) return;
    const timer = setInterval(() => setTimed((n) => n + 1), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  const shown = loaded.for;
  const busy = shown === null || shown.length !== key.length || key.some((dep, i) => !Object.is(dep, shown[i]));
  return [loaded.value, reload, busy];
}
