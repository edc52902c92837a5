// The collector bench's reads (scripts/bench/collector-readers.ts and collector-reader-loops.ts):
// the dashboard's answers for both periods, filtered ones among them, and the overlay's.
import { HOME } from './collector-data';

/** GET with the admin's cookie; the whole answer read; its time in ms. */
export async function timedGet(url: string, cookie: string | null): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: cookie ? { cookie } : {} });
  await res.arrayBuffer();
  if (res.status !== 200 && res.status !== 429) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

/** The dashboard's reads, for both periods, and the overlay's. */
export function dashboardReads(url: string): Array<[string, string]> {
  const reads: Array<[string, string]> = [];
  for (const period of ['30d', '12m'])
    for (const path of ['traffic', 'clicks', 'consent-stats', 'consents'])
      reads.push([`${path} ${period}`, `${url}/admin/api/${path}?period=${period}`]);
  // filtered: one filter from the filtered month totals where whole months are asked, else the rows
  for (const period of ['30d', '12m']) {
    reads.push([`traffic ${period}, filter browser`, `${url}/admin/api/traffic?period=${period}&filter=browser%3AFirefox`]);
    reads.push([
      `traffic ${period}, filter page`,
      `${url}/admin/api/traffic?period=${period}&filter=${encodeURIComponent(`page:${HOME}`)}`,
    ]);
    // two filters at once: never from the filtered month totals (they hold single filters), always the rows
    reads.push([
      `traffic ${period}, filter page + browser`,
      `${url}/admin/api/traffic?period=${period}&filter=${encodeURIComponent(`page:${HOME}`)}&filter=browser%3ASafari`,
    ]);
  }
  reads.push(['overlay (/api/clicks)', `${url}/api/clicks?page=${encodeURIComponent(HOME)}`]);
  return reads;
}
