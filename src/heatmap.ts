// Entry of `dist/pagepulse.heatmap.js`, the QA overlay as a file of its own beside the bundle:
// only QA and a signed-in admin ever draw it, so no visitor downloads or parses it. The bundle
// loads it on `PagePulse.heatmap.show()` with a callback on the <script> element it inserts
// (`pagepulseOverlay`); loaded any other way, this file does nothing.
import { createHeatmapOverlay } from './ui/heatmap';

export type OverlayScript = HTMLScriptElement & { pagepulseOverlay?: (create: typeof createHeatmapOverlay) => void };

(document.currentScript as OverlayScript | null)?.pagepulseOverlay?.(createHeatmapOverlay);
