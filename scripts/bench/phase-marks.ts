// The phase boundaries of src/main.ts that scripts/bench/phases.ts marks, apart so that a test
// (test/build/phase-marks.test.ts) notices when src/main.ts no longer has one of them.

/** [text in src/main.ts, the phase that starts there]: each must be found exactly once. */
export const MARKS: Array<[anchor: string, name: string]> = [
  ['  const config = readConfig(env, warned);', 'config parse'],
  ['  const t = messages(config.lang);', 'messages, notifier, stores (the consent cookies read)'],
  ['  lifetime.add(() => notifier.dispose());', 'consent early (Consent Mode, cookie clearing, blocker)'],
  ['  const bannerNow = ', 'banner now (first visit: the widget and its first render)'],
  ['  whenReady(lifetime, run);', '(waiting for DOMContentLoaded)'],
  ['  lifetime.add(watchDebugBox(ctx, (file) => besideBundle(file, ownScript)));', 'debug box watcher, keep-alive'],
  ['  const tracker = config.tracker && !originals?.tracker ? createTracker(ctx) : null;', 'tracker (first heartbeat sent)'],
  ['  lifetime.add(ctx.consent.subscribe(() =>', 'consent widget (form consent, controller, release)'],
  ['  const api = createApi(ctx, {', 'public API, ready event'],
];

/** Where the last phase ends. */
const END = "  ctx.emit('pagepulse:ready', { version: api.version });";

/** src/main.ts with `performance.mark('pp:N')` before each anchor and after the ready event; throws naming an anchor that is gone. */
export function markPhases(code: string): string {
  let out = code;
  MARKS.forEach(([anchor], i) => {
    if (out.split(anchor).length !== 2) throw new Error(`phases: src/main.ts no longer has exactly one "${anchor.trim()}"`);
    out = out.replace(anchor, `performance.mark('pp:${i + 1}');\n${anchor}`);
  });
  if (out.split(END).length !== 2) throw new Error('phases: src/main.ts no longer emits pagepulse:ready once');
  return out.replace(END, `${END}\n  performance.mark('pp:${MARKS.length + 1}');`);
}
