import { errorText } from '../errors';
import type { Messages } from '../i18n';
import type { Loaded } from '../useData';

/**
 * Loading and error states of a view; renders `children(data)` once loaded. Given `busy` (useData's
 * third value), the loaded content is a region marked `aria-busy` while newer data loads (another
 * period or filter: the old figures stay on screen until then). `failure` words a failed load
 * the view knows better (a search field the collector refused), else the error's own text.
 */
export function Status<T>({
  loaded,
  t,
  busy,
  testId,
  failure = errorText,
  children,
}: {
  loaded: Loaded<T>;
  t: Messages;
  busy?: boolean;
  testId?: string;
  failure?: (t: Messages, error: unknown) => string;
  children: (data: T) => React.ReactNode;
}) {
  if (loaded.state === 'loading') return <p role="status">{t.loading}</p>;
  if (loaded.state === 'error')
    return (
      <p role="alert" className="error">
        {t.failed} {failure(t, loaded.error)}
      </p>
    );
  if (busy === undefined) return <>{children(loaded.data)}</>;
  return (
    <div aria-busy={busy} data-testid={testId}>
      {children(loaded.data)}
    </div>
  );
}
