// The collector bench's readers in a process of their own (scripts/bench/collector-readers.ts): the
// dashboard (each answer in turn), the overlay's public click list and the consent CSV, each read
// back to back, one request of each at a time, from the line `reading` on stdout until the parent
// closes stdin; then the count of reads done as one JSON line. Apart from the load generator, so that reading 100 MB of
// CSV does not delay the heartbeats' own client and count as the collector's latency.
import { dashboardReads, timedGet } from './collector-reader-urls';

const [url, cookie, only] = process.argv.slice(2) as [string, string, string | undefined];
/** The readers to run (all three unless a comma-separated list says which). */
const kinds = only ? only.split(',') : ['dashboard', 'overlay', 'csv'];
const reads: Record<string, number> = { dashboard: 0, overlay: 0, csv: 0 };
let reading = true;
process.stdin.on('end', () => (reading = false));
process.stdin.resume();

const loop = async (kind: string, next: () => Promise<unknown>) => {
  while (reading && kinds.includes(kind)) {
    await next();
    reads[kind]!++;
  }
};
const all = dashboardReads(url);
const dashboard = all.filter(([what]) => !what.startsWith('overlay'));
const overlay = all.find(([what]) => what.startsWith('overlay'))![1];
let turn = 0;
process.stdout.write('reading\n');
await Promise.all([
  loop('dashboard', () => timedGet(dashboard[turn++ % dashboard.length]![1], cookie)),
  loop('overlay', () => timedGet(overlay, null)),
  loop('csv', () => timedGet(`${url}/admin/consents.csv`, cookie)),
]);
process.stdout.write(`${JSON.stringify(reads)}\n`);
