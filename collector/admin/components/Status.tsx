import type { Messages } from '../i18n';
import type { Loaded } from '../useData';

/** Loading and error states of a view; renders `children(data)` once loaded. */
export function Status<T>({ loaded, t, children }: { loaded: Loaded<T>; t: Messages; children: (data: T) => React.ReactNode }) {
  if (loaded.state === 'loading') return <p role="status">{t.loading}</p>;
  if (loaded.state === 'error')
    return (
      <p role="alert" className="error">
        {t.failed} {loaded.message}
      </p>
    );
  return <>{children(loaded.data)}</>;
}
