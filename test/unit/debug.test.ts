import { describe, expect, it } from 'vitest';
import { createDebugStore, MAX_DEBUG_MESSAGES } from '../../src/platform/debug';

const lines = (store: ReturnType<typeof createDebugStore>) => store.get().messages.map((m) => `${m.title}|${m.text}|${m.count}`);

describe('debug store (docs/protocol.md#debug-box)', () => {
  it('keeps a repeated message as one line with its count, moved to the end (newest last)', () => {
    const store = createDebugStore(true, () => {});
    store.add('Datenstream (Client)', 'Netzwerkfehler: HTTP 500');
    store.add('Heatmap (Client)', 'x');
    store.add('Datenstream (Client)', 'Netzwerkfehler: HTTP 500');
    store.add('Datenstream (Client)', 'Netzwerkfehler: HTTP 500');
    expect(lines(store)).toEqual(['Heatmap (Client)|x|1', 'Datenstream (Client)|Netzwerkfehler: HTTP 500|3']);
    // same text under another title is another message
    store.add('Heatmap (Client)', 'Netzwerkfehler: HTTP 500');
    expect(store.get().messages).toHaveLength(3);
    // a line keeps its id while it is counted (its view element is moved, not made anew)
    const id = store.get().messages[1]!.id;
    store.add('Datenstream (Client)', 'Netzwerkfehler: HTTP 500');
    expect(store.get().messages.at(-1)!.id).toBe(id);
  });

  it('closed stays closed while the same messages repeat; a new message opens it again', () => {
    const store = createDebugStore(true, () => {});
    store.add('a', '1');
    store.close();
    expect(store.get().closed).toBe(true);
    for (let i = 0; i < 5; i++) store.add('a', '1');
    expect(store.get().closed).toBe(true);
    expect(lines(store)).toEqual(['a|1|6']);
    store.add('b', '2');
    expect(store.get().closed).toBe(false);
    expect(lines(store)).toEqual(['a|1|6', 'b|2|1']);
  });

  it(`keeps at most ${MAX_DEBUG_MESSAGES} distinct messages, the newest`, () => {
    const store = createDebugStore(true, () => {});
    for (let i = 0; i < MAX_DEBUG_MESSAGES + 20; i++) store.add('t', String(i));
    const texts = store.get().messages.map((m) => m.text);
    expect(texts).toHaveLength(MAX_DEBUG_MESSAGES);
    expect(texts[0]).toBe('20');
    expect(texts.at(-1)).toBe(String(MAX_DEBUG_MESSAGES + 19));
  });
});
