import { useSyncExternalStore } from 'react';
import type { Announcer } from '../announcer';

/**
 * The app's one polite live region: in the page from the first render (a region added together with
 * its text is not read by every screen reader), empty until an action's result is announced. Results
 * and an action's errors alike are polite, not `role="alert"`: each answers what the admin just did
 * and waits for, nothing else speaks meanwhile, and an assertive message would cut off the reading of
 * the button or dialog that started it. A view's failed load still shows its own alert (Status).
 * Each announcement is a new paragraph (`key`), so one text twice (two saves) is read twice. Not
 * shown: the view shows the same result beside its form.
 */
export function LiveRegion({ announcer }: { announcer: Announcer }) {
  const { id, text } = useSyncExternalStore(announcer.subscribe, announcer.current);
  return (
    <div role="status" className="sr-only" data-testid="live-region">
      {text && <p key={id}>{text}</p>}
    </div>
  );
}
