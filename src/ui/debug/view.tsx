import { useSyncExternalStore } from 'react';
import type { Messages } from '../../i18n';
import { mountReactSurface } from '../react-root';
import css from './debug.css?inline';
import type { DebugStore } from '../../platform/debug';

/** The debug box: titles and texts as text nodes only; closable; listed newest last. */
function DebugBox({ store, t }: { store: DebugStore; t: Messages }) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  if (!state.enabled || state.closed || state.messages.length === 0) return null;
  return (
    <section className="box" role="log" aria-live="polite" aria-label={t.debugRegion}>
      <button type="button" className="close" aria-label={t.closeDebug} onClick={store.close}>
        ×
      </button>
      <ul>
        {state.messages.map((message) => (
          <li key={message.id}>
            <span className="title">{message.title}</span>
            <span className="text">{message.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Mount the debug box in `<pagepulse-debug>`; returns the teardown. */
export function mountDebug(doc: Document, store: DebugStore, t: Messages): () => void {
  return mountReactSurface(doc, 'debug', css, <DebugBox store={store} t={t} />);
}
