// Entry of `dist/pagepulse.debug.lite.js`: the lite build's debug box (with its own preact), loaded
// by the bundle the first time debug is on and there is a message (watchDebugBox, src/ui/surfaces.ts).
// Only QA and a site debugging itself see the box, so its bytes are not in every visitor's bundle.
// The React build keeps the box inside (it has the room). Loaded any other way, this file does nothing.
import type { QaScript } from './ui/surfaces';
import * as view from './ui/debug/view';

(document.currentScript as QaScript | null)?.pagepulseLoaded?.(view);
