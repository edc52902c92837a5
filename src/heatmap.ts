// Entry of `dist/pagepulse.heatmap.js`, the QA overlay as a file of its own beside the bundle:
// only QA and a signed-in admin ever draw it, so no visitor downloads or parses it. The bundle
// loads it on `PagePulse.heatmap.show()` (loadQaFile, src/ui/surfaces.ts); loaded any other way,
// this file does nothing.
import { createHeatmapOverlay } from './ui/heatmap';
import type { QaScript } from './ui/surfaces';

(document.currentScript as QaScript | null)?.pagepulseLoaded?.(createHeatmapOverlay);
