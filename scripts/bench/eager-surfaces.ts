// The benchmark's "before deferral" build: `scripts/bench.ts` aliases main.ts's `./ui/surfaces` to
// this file, whose static imports evaluate every UI module (React among them) while the bundle
// evaluates, before the tracker may start. The shipped builds never see it.
import '../../src/ui/debug/view';
import '../../src/ui/notify/view';
import '../../src/ui/consent/view';

export * from '../../src/ui/surfaces';
