import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Lang } from '../../i18n';
import { DEBUG_TEXTS } from '../../i18n/debug';
import { format } from '../../i18n/format';
import { mountReactSurface } from '../react-root';
import css from './debug.css?inline';
import type { DebugStore } from '../../platform/debug';

/** Lines shown at once; the earlier ones wait behind a count (docs/protocol.md#debug-box). */
export const VISIBLE_MESSAGES = 3;

/**
 * The debug box: titles and texts as text nodes only; newest last; a repeated message is one line
 * with its count; at most VISIBLE_MESSAGES lines unless the visitor asks for the earlier ones, in
 * a list of bounded height (debug.css), so it never covers the page. Closed by its button or Escape.
 */
function DebugBox({ store, lang }: { store: DebugStore; lang: Lang }) {
  const t = DEBUG_TEXTS[lang];
  const state = useSyncExternalStore(store.subscribe, store.get);
  const [all, setAll] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  // the newest line in view (a long text can make the last three taller than the list's bound)
  useEffect(() => {
    if (list.current && !all) list.current.scrollTop = list.current.scrollHeight;
  });
  if (!state.enabled || state.closed || state.messages.length === 0) return null;
  const hidden = all ? 0 : Math.max(0, state.messages.length - VISIBLE_MESSAGES);
  const earlier = state.messages.length - VISIBLE_MESSAGES;
  return (
    <section
      className="box"
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-label={t.region}
      onKeyDown={(event) => event.key === 'Escape' && store.close()}
    >
      <button type="button" className="close" aria-label={t.close} onClick={store.close}>
        ×
      </button>
      {earlier > 0 && (
        <button type="button" className="more" aria-expanded={all} onClick={() => setAll(!all)}>
          {format(t.earlier, String(earlier))}
        </button>
      )}
      <ul ref={list}>
        {state.messages.slice(hidden).map((message) => (
          <li key={message.id}>
            <span className="title">{message.title}</span>
            <span className="text">{message.text}</span>
            {message.count > 1 && <span className="count">{`×${message.count}`}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Mount the debug box in `<pagepulse-debug>`; returns the teardown. */
export function mountDebug(doc: Document, store: DebugStore, lang: Lang): () => void {
  return mountReactSurface(doc, 'debug', css, <DebugBox store={store} lang={lang} />);
}
