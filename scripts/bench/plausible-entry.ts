// Bench-only: Plausible's npm tracker as a page would start it.
import { init } from '@plausible-analytics/tracker';

init({ domain: 'bench.local', endpoint: '/index.php?option=plausible', captureOnLocalhost: true });
