import { useSyncExternalStore } from 'react';
import type { Messages } from '../../i18n';
import { mountReactSurface } from '../react-root';
import css from './notify.css?inline';
import type { NotifyStore } from './store';

/** Notifications: one polite live region; each item pauses its timer while hovered or focused. */
function Notifications({ store, t }: { store: NotifyStore; t: Messages }) {
  const notices = useSyncExternalStore(store.subscribe, store.get);
  return (
    <ol aria-live="polite" aria-label={t.notifyRegion}>
      {notices.map((notice) => (
        <li
          key={notice.id}
          className={notice.status}
          onPointerEnter={() => store.hold(notice.id, 'hover', true)}
          onPointerLeave={() => store.hold(notice.id, 'hover', false)}
          onFocus={() => store.hold(notice.id, 'focus', true)}
          onBlur={() => store.hold(notice.id, 'focus', false)}
        >
          <span className="text">{notice.text}</span>
          <button type="button" aria-label={t.close} onClick={() => store.close(notice.id)}>
            ×
          </button>
        </li>
      ))}
    </ol>
  );
}

/** Mount the notifications in `<pagepulse-notify>`; returns the teardown. */
export function mountNotify(doc: Document, store: NotifyStore, t: Messages): () => void {
  return mountReactSurface(doc, 'notify', css, <Notifications store={store} t={t} />);
}
