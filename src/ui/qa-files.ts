import type { Context } from '../context';
import { settle } from '../platform/guard';
import { lazySurface, loadQaFile } from './surfaces';
import type { createHeatmapOverlay } from './heatmap';

// The files beside the bundle (the QA files), found by the bundle's own `<script>` (main.ts reads it
// while the bundle first runs, the only time document.currentScript names it).

/**
 * The QA overlay, a file of its own beside the bundle (`pagepulse.heatmap.js`, src/heatmap.ts),
 * loaded on first use; it reads from the collector the script came from.
 */
export function heatmapHandle(ctx: Context, script: HTMLScriptElement | null): { show(): Promise<void>; hide(): void } {
  const collector = ctx.config.collector ?? scriptOrigin(script);
  const load = lazySurface(
    () =>
      loadQaFile<typeof createHeatmapOverlay>(ctx.doc, besideBundle('pagepulse.heatmap.js', script)).then((create) =>
        create(ctx, collector),
      ),
    (error) => ctx.log.warn('heatmap:', error),
  );
  let loaded = false;
  return {
    show: () => ((loaded = true), load().then((o) => o?.show())),
    hide: () => {
      if (loaded)
        settle(
          load().then((o) => o?.hide()),
          ctx.log.error,
        );
    },
  };
}

/** A file beside the bundle (the QA files): by the bundle's own address (else the page's, for an inlined copy). */
export function besideBundle(file: string, script: HTMLScriptElement | null): string {
  return new URL(file, script?.src || location.href).href;
}

function scriptOrigin(script: HTMLScriptElement | null): string {
  try {
    return `${new URL(script?.src || location.href).origin}/`;
  } catch {
    return '/';
  }
}
