import { useCallback, useEffect, useState } from 'react';

/** What a view knows about its data: still loading, loaded, or failed with a message. */
export type Loaded<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'error'; message: string };

/** Load `fetcher` now, again when `deps` change, and every `everyMs` if given; `reload` forces it. */
export function useData<T>(fetcher: () => Promise<T>, deps: readonly unknown[], everyMs = 0): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    fetcher().then(
      (data) => live && setLoaded({ state: 'ok', data }),
      (error: Error) => live && setLoaded({ state: 'error', message: error.message }),
    );
    return () => {
      live = false;
    };
    // the caller's deps stand for `fetcher` (a new closure each render), plus the reload tick
  }, [...deps, tick]);
  useEffect(() => {
    if (!everyMs) return;
    const timer = setInterval(reload, everyMs);
    return () => clearInterval(timer);
  }, [everyMs, reload]);
  return [loaded, reload];
}
